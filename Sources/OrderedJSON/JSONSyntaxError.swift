/// Why `JSONParser` refused a document: a message and the position of the first offending byte
/// (1-based line and column, counted in UTF-8 bytes, and the byte offset).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    /// Byte offset of the error in the input.
    public var offset: Int
    /// Which rule the document broke, for readers that answer some cases in their own words.
    package var reason: Reason = .grammar

    /// Which rule a refused document broke.
    package enum Reason: Sendable, Hashable {
        /// Not JSON as RFC 8259 writes it (the message says where and why).
        case grammar
        /// Arrays and objects nested deeper than the parser was told to allow.
        case nestingTooDeep
        /// An object names this member twice (refused unless repeats are kept).
        case repeatedName(String)
    }

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
