/// Why jansson refused a document: its own message and place (`json_error_t`) and its error code.
public struct JanssonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// jansson's error codes that the differential tests tell apart (`enum json_error_code`); any
    /// other code is `.other` with its number.
    public enum Code: Sendable, Hashable {
        case invalidUTF8
        case prematureEndOfInput
        case endOfInputExpected
        case invalidSyntax
        /// A `\u0000` without `JSON_ALLOW_NUL`.
        case nullCharacter
        /// A `\u0000` in a member name (never allowed).
        case nullByteInKey
        /// A repeated member name under `JSON_REJECT_DUPLICATES`.
        case duplicateKey
        /// An integer beyond `json_int_t` or a real beyond `double`.
        case numericOverflow
        /// Nesting deeper than jansson's limit (`JSON_PARSER_MAX_DEPTH`, 2048 by default).
        case stackOverflow
        case other(Int)
    }

    /// jansson's message (`json_error_t.text`).
    public var text: String
    public var code: Code
    /// 1-based line and column as jansson counts them (columns in characters), and the byte
    /// position where it stopped.
    public var line: Int
    public var column: Int
    public var position: Int

    public init(text: String, code: Code, line: Int, column: Int, position: Int) {
        self.text = text
        self.code = code
        self.line = line
        self.column = column
        self.position = position
    }

    public var description: String { "jansson: line \(line), column \(column): \(text)" }
}
