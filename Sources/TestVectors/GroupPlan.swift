import OrderedJSON

/// A group of tests to generate: shared parameters and one job per test.
struct GroupPlan: Sendable {
    var type: String
    var parameters: [String: JSONValue]
    var jobs: [@Sendable (inout SeededRandom) -> VectorTestCase]
}
