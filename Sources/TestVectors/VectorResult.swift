/// A test's `result`, as Wycheproof.
public enum VectorResult: String, Sendable, CaseIterable {
    case valid, invalid, acceptable
}
