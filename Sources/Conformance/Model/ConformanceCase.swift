/// One requirement of the protocol, checked against a backend over HTTP.
///
/// A case says what it checks (id, title, group, level, source), what it sends and what it
/// expects, in words a report prints; `run` sends the requests through the context (which paces,
/// counts and records them) and returns a verdict. A case never throws: what stops it becomes a
/// verdict (`ConformanceError.verdict`).
public struct ConformanceCase: Sendable, Identifiable {
    /// Dotted, stable, matched by `--cases` (e.g. `pass2.single-use`).
    public let id: String
    public let title: String
    /// The group of the report's index (`ConformanceGroup`).
    public let group: ConformanceGroup
    public let level: RequirementLevel
    /// Where the requirement comes from: a section of the project's protocol document
    /// (`docs/protocol.md §4`), or the upstream behaviour it follows.
    public let source: String
    /// What the case sends, in words.
    public let sends: String
    /// What it expects back, in words.
    public let expects: String
    /// Whether the case waits on the backend's timers (seconds of real time); such cases run only
    /// when the suite is told to include slow cases.
    public let slow: Bool
    /// The most requests the case may send.
    public let requestLimit: Int
    let body: @Sendable (ConformanceContext) async throws(ConformanceError) -> Verdict

    public init(
        _ id: String, _ group: ConformanceGroup, _ level: RequirementLevel, title: String, source: String,
        sends: String, expects: String, slow: Bool = false, requestLimit: Int = 40,
        _ body: @escaping @Sendable (ConformanceContext) async throws(ConformanceError) -> Verdict
    ) {
        self.id = id
        self.title = title
        self.group = group
        self.level = level
        self.source = source
        self.sends = sends
        self.expects = expects
        self.slow = slow
        self.requestLimit = requestLimit
        self.body = body
    }

    /// Runs the case; every way it can stop is a verdict.
    public func run(_ context: ConformanceContext) async -> Verdict {
        do {
            return try await body(context)
        } catch {
            return error.verdict
        }
    }
}
