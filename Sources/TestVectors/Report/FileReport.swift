import MPinCrypto

/// The verdicts on one file.
public struct FileReport: Sendable, Equatable {
    public var file: String
    public var format: String
    public var curve: CurveID
    public var verdicts: [VectorVerdict]
    public var passed: Int { verdicts.filter(\.passed).count }
    public var failed: Int { verdicts.count - passed }
    public init(file: String, format: String, curve: CurveID, verdicts: [VectorVerdict]) {
        self.file = file
        self.format = format
        self.curve = curve
        self.verdicts = verdicts
    }
}
