import MPinCrypto

/// Python 2.7's `json` module as the open-source server uses it: `json.loads` with the C scanner
/// (`Modules/_json.c`, its error messages with their positions, which the RPS's 403 reasons
/// quote) and `json.dumps` with the default separators `", "` and `": "`, `ensure_ascii` escapes,
/// and the keys in Python 2 dict order (`PythonDict`).
enum PythonJSON {
    /// `json.loads(body)` of the UTF-8 bytes of a request body.
    static func loads(_ body: [UInt8]) -> Result<PythonValue, PythonError> {
        guard let text = String(validating: body, as: UTF8.self) else {
            let offset = firstInvalidUTF8(body)
            let bad = offset < body.count ? body[offset] : 0
            return .failure(
                .valueError(
                    "'utf8' codec can't decode byte 0x\(Hex.encode([bad])) in position \(offset): invalid start byte"))
        }
        var parser = Parser(Array(text.unicodeScalars))
        return parser.document()
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length =
                b < 0x80 ? 1 : b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4 : 0
            guard length > 0, i + length <= bytes.count,
                bytes[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 }),
                String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil
            else { return i }
            i += length
        }
        return i
    }

    /// `json.dumps(value)`; Tornado's `json_encode` then writes `</` as `<\/`.
    static func dumps(_ value: PythonValue, tornado: Bool = false) -> String {
        var out = ""
        write(value, to: &out)
        return tornado ? out.replacingOccurrences(of: "</", with: "<\\/") : out
    }

    private static func write(_ value: PythonValue, to out: inout String) {
        switch value {
        case .none: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let text, _): out += text
        case .string(let s): quote(s, to: &out)
        case .list(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                write(item, to: &out)
            }
            out += "]"
        case .dict(let members, let literal):
            var table = PythonDict(presized: literal)
            var values: [String: PythonValue] = [:]
            for (key, value) in members {
                table.insert(key)
                values[key] = value
            }
            out += "{"
            for (i, key) in table.keys.enumerated() {
                if i > 0 { out += ", " }
                quote(key, to: &out)
                out += ": "
                write(values[key] ?? .none, to: &out)
            }
            out += "}"
        }
    }

    /// A string with `ensure_ascii`: `\"`, `\\`, the short escapes, `\u00XX` for the other
    /// controls and DEL, `\uXXXX` (surrogate pairs beyond the BMP) for the rest outside ASCII.
    static func quote(_ s: String, to out: inout String) {
        out += "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        out += "\""
    }

    /// The C scanner over the decoded text (positions count code points, as Python's do).
    private struct Parser {
        let s: [Unicode.Scalar]
        init(_ s: [Unicode.Scalar]) { self.s = s }

        /// What `scan_once` signals: a value, `StopIteration` (no value starts here), or a `ValueError`.
        enum Scan: Error { case stop, error(String) }

        mutating func document() -> Result<PythonValue, PythonError> {
            let start = skip(0)
            do throws(Scan) {
                let (value, end) = try scan(start, depth: 0)
                let after = skip(end)
                if after != s.count {
                    let (l1, c1) = lineColumn(after), (l2, c2) = lineColumn(s.count)
                    return .failure(
                        .valueError(
                            "Extra data: line \(l1) column \(c1) - line \(l2) column \(c2) (char \(after) - \(s.count))"
                        ))
                }
                return .success(value)
            } catch {
                switch error {
                case .stop: return .failure(.valueError("No JSON object could be decoded"))
                case .error(let message): return .failure(.valueError(message))
                }
            }
        }

        func skip(_ i: Int) -> Int {
            var i = i
            while i < s.count, [" ", "\t", "\n", "\r"].contains(s[i]) { i += 1 }
            return i
        }

        func lineColumn(_ pos: Int) -> (Int, Int) {
            let before = s[..<min(pos, s.count)]
            let line = before.filter { $0 == "\n" }.count + 1
            if line == 1 { return (1, pos + 1) }
            let lastNewline = before.lastIndex(of: "\n") ?? 0
            return (line, pos - lastNewline)
        }

        func fail(_ message: String, _ pos: Int) -> Scan {
            let (line, column) = lineColumn(pos)
            return .error("\(message): line \(line) column \(column) (char \(pos))")
        }

        func scan(_ i: Int, depth: Int) throws(Scan) -> (PythonValue, Int) {
            guard i < s.count else { throw .stop }
            guard depth < 500 else { throw .error("maximum recursion depth exceeded while decoding a JSON document") }
            switch s[i] {
            case "\"": return try string(i + 1)
            case "{": return try object(i + 1, depth: depth)
            case "[": return try array(i + 1, depth: depth)
            case "n" where word("null", i): return (.none, i + 4)
            case "t" where word("true", i): return (.bool(true), i + 4)
            case "f" where word("false", i): return (.bool(false), i + 5)
            case "N" where word("NaN", i): return (.number("NaN", isInteger: false), i + 3)
            case "I" where word("Infinity", i): return (.number("Infinity", isInteger: false), i + 8)
            case "-" where word("-Infinity", i): return (.number("-Infinity", isInteger: false), i + 9)
            default: return try number(i)
            }
        }

        func word(_ w: String, _ i: Int) -> Bool {
            let scalars = Array(w.unicodeScalars)
            return i + scalars.count <= s.count && Array(s[i..<(i + scalars.count)]) == scalars
        }

        func number(_ start: Int) throws(Scan) -> (PythonValue, Int) {
            var i = start
            if i < s.count, s[i] == "-" { i += 1 }
            guard i < s.count, s[i].properties.numericType != nil, s[i].isASCII else { throw .stop }
            if s[i] == "0" { i += 1 } else { while i < s.count, s[i].isASCII, ("0"..."9").contains(s[i]) { i += 1 } }
            var integer = true
            if i + 1 < s.count, s[i] == ".", ("0"..."9").contains(s[i + 1]) {
                integer = false
                i += 1
                while i < s.count, ("0"..."9").contains(s[i]) { i += 1 }
            }
            if i < s.count, s[i] == "e" || s[i] == "E" {
                var j = i + 1
                if j < s.count, s[j] == "+" || s[j] == "-" { j += 1 }
                if j < s.count, ("0"..."9").contains(s[j]) {
                    while j < s.count, ("0"..."9").contains(s[j]) { j += 1 }
                    integer = false
                    i = j
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: s[start..<i])
            if integer, let value = Int64(text) { return (.int(value), i) }
            return (.number(text, isInteger: integer), i)
        }

        func string(_ begin: Int) throws(Scan) -> (PythonValue, Int) {
            var out = String.UnicodeScalarView()
            var i = begin
            while true {
                guard i < s.count else { throw fail("Unterminated string starting at", begin - 1) }
                let c = s[i]
                if c == "\"" { return (.string(String(out)), i + 1) }
                if c.value < 0x20 { throw fail("Invalid control character at", i) }
                if c != "\\" {
                    out.append(c)
                    i += 1
                    continue
                }
                i += 1
                guard i < s.count else { throw fail("Unterminated string starting at", begin - 1) }
                switch s[i] {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    guard let unit = hex4(i + 1) else { throw fail("Invalid \\uXXXX escape", i - 1) }
                    i += 4
                    var scalarValue = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit), i + 2 < s.count, s[i + 1] == "\\", s[i + 2] == "u" {
                        guard let low = hex4(i + 3) else { throw fail("Invalid \\uXXXX escape", i + 1) }
                        if (0xDC00..<0xE000).contains(low) {
                            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                            i += 6
                        }
                    }
                    out.append(Unicode.Scalar(scalarValue) ?? "\u{FFFD}")
                default:
                    throw fail("Invalid \\escape", i - 1)
                }
                i += 1
            }
        }

        func hex4(_ i: Int) -> UInt16? {
            guard i + 4 <= s.count else { return nil }
            var text = ""
            text.unicodeScalars.append(contentsOf: s[i..<(i + 4)])
            return text.allSatisfy(\.isHexDigit) ? UInt16(text, radix: 16) : nil
        }

        func object(_ start: Int, depth: Int) throws(Scan) -> (PythonValue, Int) {
            var members: [(String, PythonValue)] = []
            var i = skip(start)
            let end = s.count - 1
            if i <= end, s[i] != "}" {
                while i <= end {
                    guard s[i] == "\"" else { throw fail("Expecting property name", i) }
                    let (keyValue, afterKey) = try string(i + 1)
                    let key = keyValue.string ?? ""
                    i = skip(afterKey)
                    guard i <= end, s[i] == ":" else { throw fail("Expecting : delimiter", i) }
                    i = skip(i + 1)
                    let (value, afterValue) = try scan(i, depth: depth + 1)
                    if let at = members.firstIndex(where: { $0.0 == key }) {
                        members[at].1 = value
                    } else {
                        members.append((key, value))
                    }
                    i = skip(afterValue)
                    if i > end || s[i] == "}" { break }
                    guard s[i] == "," else { throw fail("Expecting , delimiter", i) }
                    i = skip(i + 1)
                }
            }
            guard i <= end, s[i] == "}" else { throw fail("Expecting object", end) }
            return (.dict(members, literal: 0), i + 1)
        }

        func array(_ start: Int, depth: Int) throws(Scan) -> (PythonValue, Int) {
            var items: [PythonValue] = []
            var i = skip(start)
            let end = s.count - 1
            if i <= end, s[i] != "]" {
                while i <= end {
                    let (value, after) = try scan(i, depth: depth + 1)
                    items.append(value)
                    i = skip(after)
                    if i > end || s[i] == "]" { break }
                    guard s[i] == "," else { throw fail("Expecting , delimiter", i) }
                    i = skip(i + 1)
                }
            }
            guard i <= end, s[i] == "]" else { throw fail("Expecting object", end) }
            return (.list(items), i + 1)
        }
    }
}
