/// The verdicts on one group of one of our files.
public struct SuiteGroupReport: Sendable, Equatable {
    public var index: Int
    public var type: String
    /// The group's shared parameters, `key=value` joined by commas.
    public var parameters: String
    public var verdicts: [VectorVerdict]
    public var passed: Int { verdicts.filter(\.passed).count }
    public var failed: Int { verdicts.count - passed }
}
