import MPinCrypto

/// The verdicts on one of our files: per group, plus the file's structure.
public struct SuiteFileReport: Sendable, Equatable {
    public var file: String
    public var suite: String
    public var curve: CurveID
    public var groups: [SuiteGroupReport]
    /// Schema, tcId and count problems (formatting is `lint`'s business).
    public var structure: [LintProblem]

    /// All verdicts, with the structure problems as one more failing vector named `file structure`.
    public var fileReport: FileReport {
        var verdicts = groups.flatMap(\.verdicts)
        if !structure.isEmpty {
            let failures = structure.map {
                FieldFailure(vector: "file structure", line: $0.line ?? 1, field: $0.path, expected: "", actual: $0.message)
            }
            verdicts.append(VectorVerdict(vector: "file structure", line: 1, checkedFields: failures.count, failures: failures))
        }
        return FileReport(file: file, format: "workbench-\(suite)", curve: curve, verdicts: verdicts)
    }
}

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
