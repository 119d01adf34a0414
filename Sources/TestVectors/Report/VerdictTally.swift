/// Verdicts counted as they come, keeping only the first `limit` failing ones (and, when asked,
/// the first `limit` passing ones): a report on a file of a million vectors holds at most
/// `2 × limit` verdicts, however many the file has, and still counts every one.
public struct VerdictTally: Sendable, Equatable {
    /// The most failing (and passing) verdicts kept.
    public let limit: Int
    /// Whether passing verdicts are kept too (for a verbose listing).
    public let keepsPassing: Bool
    /// The verdicts kept, in the order they came.
    public private(set) var kept: [VectorVerdict] = []
    /// Verdicts counted but not kept.
    public private(set) var unkeptPassed = 0
    public private(set) var unkeptFailed = 0
    private var keptPassed = 0
    private var keptFailed = 0

    /// - Precondition: `limit` is 0 or more.
    public init(limit: Int, keepsPassing: Bool) {
        precondition(limit >= 0, "VerdictTally: limit \(limit) is negative")
        self.limit = limit
        self.keepsPassing = keepsPassing
    }

    /// Counts `verdict`, keeping it while fewer than `limit` of its kind are kept.
    public mutating func add(_ verdict: VectorVerdict) {
        if verdict.passed {
            if keepsPassing && keptPassed < limit {
                keptPassed += 1
                kept.append(verdict)
            } else {
                unkeptPassed += 1
            }
        } else if keptFailed < limit {
            keptFailed += 1
            kept.append(verdict)
        } else {
            unkeptFailed += 1
        }
    }
}
