/// One field of one vector that did not match.
public struct FieldFailure: Sendable, Equatable {
    public var vector: String
    public var line: Int
    public var field: String
    public var expected: String
    public var actual: String
    public init(vector: String, line: Int, field: String, expected: String, actual: String) {
        self.vector = vector
        self.line = line
        self.field = field
        self.expected = expected
        self.actual = actual
    }
}
