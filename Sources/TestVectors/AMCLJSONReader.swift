/// Reads AMCL's `.json` vector lists: an array of flat objects whose values are strings or numbers.
///
/// Each object becomes an `AMCLBlock` so that the checkers see one shape for both formats. A
/// small dedicated parser (rather than `JSONSerialization`) keeps the key order of each object and
/// the 1-based line of every field, so that verdicts point into the file. Numbers are kept as their
/// literal text. An object with a `test_no` field is called `test_no 17`; others `entry N` (1-based).
public enum AMCLJSONReader {
    /// Reads and parses the file at `path`.
    ///
    /// - Throws: `VectorFileError` when the file cannot be read or is not such a list.
    public static func read(contentsOf path: String) throws(VectorFileError) -> [AMCLBlock] {
        try parse(VectorFileContents.read(path), file: path)
    }

    /// Parses the text of a file; `file` is only used in error messages.
    ///
    /// - Throws: `VectorFileError` with the 1-based line of the first offending character.
    public static func parse(_ text: String, file: String) throws(VectorFileError) -> [AMCLBlock] {
        var parser = Parser(bytes: Array(text.utf8), file: file)
        return try parser.parseList()
    }

    private struct Parser {
        let bytes: [UInt8]
        let file: String
        var index = 0
        var line = 1

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        mutating func parseList() throws(VectorFileError) -> [AMCLBlock] {
            skipWhitespace()
            try expect(UInt8(ascii: "["), "a JSON array of vectors")
            var blocks: [AMCLBlock] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                index += 1
            } else {
                while true {
                    skipWhitespace()
                    let start = line
                    let fields = try parseObject()
                    let name = AMCLTextReader.fieldName(of: fields) ?? "entry \(blocks.count + 1)"
                    blocks.append(AMCLBlock(name: name, line: fields.first?.line ?? start, fields: fields))
                    skipWhitespace()
                    if peek() == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"), "`,` or `]` after a vector")
                    break
                }
            }
            skipWhitespace()
            guard index == bytes.count else { throw error("unexpected text after the list") }
            return blocks
        }

        mutating func parseObject() throws(VectorFileError) -> [AMCLBlock.Field] {
            try expect(UInt8(ascii: "{"), "a JSON object (one vector)")
            var fields: [AMCLBlock.Field] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { index += 1; return fields }
            while true {
                skipWhitespace()
                let keyLine = line
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a field name in quotes") }
                let key = try parseString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "`:` after the field name")
                skipWhitespace()
                let value: String
                switch peek() ?? 0 {
                case UInt8(ascii: "\""): value = try parseString()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = parseNumber()
                default: throw error("field \(key): values must be strings or numbers")
                }
                if let earlier = fields.first(where: { $0.key == key }) {
                    throw VectorFileError(
                        file: file, line: keyLine,
                        message: "key \(key) appears twice in one object (first on line \(earlier.line))")
                }
                fields.append(AMCLBlock.Field(key: key, value: value, line: keyLine))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"), "`,` or `}` after a field")
                return fields
            }
        }

        mutating func parseString() throws(VectorFileError) -> String {
            index += 1  // opening quote
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\n"):
                    throw error("unterminated string")
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw error("unterminated string") }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(code)
                        else { throw error("bad \\u escape") }
                        index += 4
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw error("bad escape in a string")
                    }
                default:
                    out.append(byte)
                }
            }
            throw error("unterminated string")
        }

        mutating func parseNumber() -> String {
            let start = index
            while index < bytes.count, Self.numberBytes.contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        static let numberBytes: Set<UInt8> = Set("0123456789+-.eE".utf8)

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\n"): line += 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
                default: return
                }
                index += 1
            }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(VectorFileError) {
            guard peek() == byte else { throw error("expected \(what)") }
            index += 1
        }

        func error(_ message: String) -> VectorFileError {
            let found: String
            if let byte = peek() {
                found = ", found `\(String(decoding: [byte], as: UTF8.self))`"
            } else {
                found = ", found the end of the file"
            }
            return VectorFileError(file: file, line: line, message: message + found)
        }
    }
}
