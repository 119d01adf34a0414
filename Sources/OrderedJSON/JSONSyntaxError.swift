/// Why `JSONParser` refused a document: a message and the position of the first offending byte
/// (1-based line and column, counted in UTF-8 bytes, and the byte offset).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    /// Byte offset of the error in the input.
    public var offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
