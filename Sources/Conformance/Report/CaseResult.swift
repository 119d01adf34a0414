import FlowRecording

/// A case as it ran: what it is, its verdict, how long it took, how many requests it sent, its
/// exchanges, and where its cassette was written.
public struct CaseResult: Sendable {
    public var id: String
    public var title: String
    public var group: ConformanceGroup
    public var level: RequirementLevel
    public var source: String
    public var sends: String
    public var expects: String
    public var verdict: Verdict
    public var seconds: Double
    public var requests: Int
    public var exchanges: [ExchangeSummary]
    /// The cassette's path once written (`ConformanceReport.writingCassettes(to:)`).
    public var cassettePath: String?
    /// The cassette itself (not part of the JSON report; nil in a report read back).
    public var cassette: Cassette?
    /// Whether the run's deadline cut the case (not part of the JSON report).
    public var deadlineHit = false

    public init(
        id: String, title: String, group: ConformanceGroup, level: RequirementLevel, source: String, sends: String,
        expects: String, verdict: Verdict, seconds: Double, requests: Int, exchanges: [ExchangeSummary],
        cassettePath: String? = nil, cassette: Cassette? = nil
    ) {
        self.id = id
        self.title = title
        self.group = group
        self.level = level
        self.source = source
        self.sends = sends
        self.expects = expects
        self.verdict = verdict
        self.seconds = seconds
        self.requests = requests
        self.exchanges = exchanges
        self.cassettePath = cassettePath
        self.cassette = cassette
    }

    init(_ conformanceCase: ConformanceCase, verdict: Verdict, seconds: Double, requests: Int, cassette: Cassette?) {
        self.init(
            id: conformanceCase.id, title: conformanceCase.title, group: conformanceCase.group,
            level: conformanceCase.level,
            source: conformanceCase.source, sends: conformanceCase.sends, expects: conformanceCase.expects,
            verdict: verdict,
            seconds: seconds, requests: requests, exchanges: cassette.map(ExchangeSummary.of) ?? [], cassette: cassette)
    }

    /// Whether this result makes the run fail: a MUST case with the verdict `fail`.
    public var failsRun: Bool { level == .must && verdict.kind == .fail }
}
