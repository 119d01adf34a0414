import MPinCrypto

/// The verdicts on one file: the ones kept (every one, unless the report was made with a cap, see
/// `VerdictTally`) and the counts of those not kept.
public struct FileReport: Sendable, Equatable {
    public var file: String
    public var format: String
    public var curve: CurveID
    public var verdicts: [VectorVerdict]
    /// Vectors checked but not kept in `verdicts` (beyond the cap of the report's maker).
    public var unkeptPassed = 0
    public var unkeptFailed = 0
    public var passed: Int { verdicts.filter(\.passed).count + unkeptPassed }
    public var failed: Int { verdicts.count - verdicts.filter(\.passed).count + unkeptFailed }
    public init(file: String, format: String, curve: CurveID, verdicts: [VectorVerdict]) {
        self.file = file
        self.format = format
        self.curve = curve
        self.verdicts = verdicts
    }

    /// The report of a tally: its kept verdicts and its counts of the others.
    public init(file: String, format: String, curve: CurveID, tally: VerdictTally) {
        self.init(file: file, format: format, curve: curve, verdicts: tally.kept)
        unkeptPassed = tally.unkeptPassed
        unkeptFailed = tally.unkeptFailed
    }
}
