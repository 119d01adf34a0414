/// One problem `lint` (or the verifier's structure check) found in a vector file.
public struct LintProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// The JSON path of the offending member, e.g. `testGroups[0].tests[2].tcId`.
    public var path: String
    /// The test's tcId, when the problem is inside a test.
    public var tcId: Int?
    public var message: String

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        let test = tcId.map { " (tcId \($0))" } ?? ""
        return "\(location): \(path)\(test): \(message)"
    }
}
