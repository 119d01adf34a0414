/// The verdict on one vector (one block, one JSON entry): passed when `failures` is empty.
public struct VectorVerdict: Sendable, Equatable {
    public var vector: String
    public var line: Int
    public var checkedFields: Int
    public var failures: [FieldFailure]
    public var passed: Bool { failures.isEmpty }
    public init(vector: String, line: Int, checkedFields: Int, failures: [FieldFailure]) {
        self.vector = vector
        self.line = line
        self.checkedFields = checkedFields
        self.failures = failures
    }
}
