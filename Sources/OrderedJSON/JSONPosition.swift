/// A place in a JSON text: the 1-based line and column (columns counted in UTF-8 bytes, as in
/// `JSONSyntaxError`) and the 0-based byte offset.
public struct JSONPosition: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// Byte offset in the input.
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column)" }
}
