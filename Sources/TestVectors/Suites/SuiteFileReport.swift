import MPinCrypto

/// The verdicts on one of our files: per group, plus the file's structure.
public struct SuiteFileReport: Sendable, Equatable {
    public var file: String
    public var suite: String
    public var curve: CurveID
    public var groups: [SuiteGroupReport]
    /// Schema, tcId and count problems (formatting is `lint`'s business).
    public var structure: [LintProblem]
    /// Structure problems found but not kept in `structure` (beyond the cap of the report's maker).
    public var unkeptStructure = 0

    /// All verdicts, with the structure problems as one more failing vector named `file structure`.
    public var fileReport: FileReport {
        var verdicts = groups.flatMap(\.verdicts)
        if !structure.isEmpty {
            let failures = structure.map {
                FieldFailure(
                    vector: "file structure", line: $0.line ?? 1, field: $0.path, expected: "", actual: $0.message)
            }
            verdicts.append(
                VectorVerdict(
                    vector: "file structure", line: 1, checkedFields: failures.count + unkeptStructure,
                    failures: failures))
        }
        var report = FileReport(file: file, format: "workbench-\(suite)", curve: curve, verdicts: verdicts)
        report.unkeptPassed = groups.reduce(0) { $0 + $1.unkeptPassed }
        report.unkeptFailed = groups.reduce(0) { $0 + $1.unkeptFailed }
        return report
    }
}

/// The verdicts on one group of one of our files.
public struct SuiteGroupReport: Sendable, Equatable {
    public var index: Int
    public var type: String
    /// The group's shared parameters, `key=value` joined by commas.
    public var parameters: String
    public var verdicts: [VectorVerdict]
    /// Tests checked but not kept in `verdicts` (beyond the cap of the report's maker).
    public var unkeptPassed = 0
    public var unkeptFailed = 0
    public var passed: Int { verdicts.filter(\.passed).count + unkeptPassed }
    public var failed: Int { verdicts.count - verdicts.filter(\.passed).count + unkeptFailed }
}
