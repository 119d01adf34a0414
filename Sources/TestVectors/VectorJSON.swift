/// A JSON value as our vector files use it: strings, integers, booleans, null, arrays, objects.
///
/// The canonical text (``canonicalText``) is what the generator writes and `lint` expects: keys
/// sorted by their UTF-8 bytes, two-space indentation, `"key": value`, empty containers as `[]` and
/// `{}`, non-ASCII characters as they are, a trailing newline. Equal values give identical bytes.
public indirect enum VectorJSON: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    case array([VectorJSON])
    case object([String: VectorJSON])

    public subscript(key: String) -> VectorJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        if case .integer(let i) = self { return i }
        return nil
    }

    public var arrayValue: [VectorJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: VectorJSON]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The value as a vector field: strings as they are, numbers in decimal, booleans as `true`/`false`.
    var fieldText: String? {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .bool(let b): b ? "true" : "false"
        default: nil
        }
    }

    /// The canonical text, with a trailing newline.
    public var canonicalText: String {
        var out = ""
        write(into: &out, indent: 0)
        out.append("\n")
        return out
    }

    static func sortedKeys(_ members: [String: VectorJSON]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func write(into out: inout String, indent: Int) {
        switch self {
        case .string(let s): Self.writeString(s, into: &out)
        case .integer(let i): out.append(String(i))
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("null")
        case .array(let items):
            if items.isEmpty { out.append("[]"); return }
            out.append("[\n")
            for (index, item) in items.enumerated() {
                out.append(String(repeating: " ", count: indent + 2))
                item.write(into: &out, indent: indent + 2)
                out.append(index == items.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: " ", count: indent) + "]")
        case .object(let members):
            if members.isEmpty { out.append("{}"); return }
            out.append("{\n")
            let keys = Self.sortedKeys(members)
            for (index, key) in keys.enumerated() {
                out.append(String(repeating: " ", count: indent + 2))
                Self.writeString(key, into: &out)
                out.append(": ")
                members[key]!.write(into: &out, indent: indent + 2)
                out.append(index == keys.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: " ", count: indent) + "}")
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out.append("\"")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}

/// A JSON text parsed, with the line of every object member (by path, e.g. `testGroups[0].tests[3].U`).
public struct ParsedVectorJSON: Sendable {
    public var value: VectorJSON
    /// 1-based line of each member's key, keyed by its path.
    public var lines: [String: Int]
}

/// A small JSON parser that keeps line numbers; integers only (the vector files have no fractions).
public enum VectorJSONParser {
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public static func parse(_ text: String) throws(SyntaxError) -> ParsedVectorJSON {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value(path: "")
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("text after the JSON value") }
        return ParsedVectorJSON(value: value, lines: parser.lines)
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lines: [String: Int] = [:]

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A: line += 1; index += 1
                case 0x20, 0x09, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) throws(SyntaxError) {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            index += 1
        }

        mutating func value(path: String) throws(SyntaxError) -> VectorJSON {
            guard index < bytes.count else { throw error("unexpected end of text") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: VectorJSON] = [:]
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipWhitespace()
                    let keyLine = line
                    let key = try string()
                    guard members[key] == nil else { throw error("duplicate key \"\(key)\"") }
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"))
                    skipWhitespace()
                    let memberPath = path.isEmpty ? key : path + "." + key
                    lines[memberPath] = keyLine
                    members[key] = try value(path: memberPath)
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unexpected end of text in an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [VectorJSON] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipWhitespace()
                    items.append(try value(path: "\(path)[\(items.count)]"))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unexpected end of text in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                let start = index
                if bytes[index] == UInt8(ascii: "-") { index += 1 }
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                    throw error("only integers are allowed")
                }
                guard let n = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                    throw error("unexpected character")
                }
                return .integer(n)
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
                throw error("unexpected character")
            }
            index += w.count
        }

        mutating func string() throws(SyntaxError) -> String {
            try expect(UInt8(ascii: "\""))
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw error("unterminated string") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                        index += 4
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: throw error("bad escape")
                    }
                case 0x0A:
                    throw error("newline inside a string")
                default:
                    out.append(byte)
                }
            }
        }
    }
}
