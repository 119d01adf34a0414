import Conformance

/// One requirement of the protocol on a client, checked by running the client against a backend
/// that misbehaves in one way (or not at all): id, title, group, level and source, what the
/// backend does and what the client must do, in words a report prints; the backend
/// (`CaseBackend`: the faults, by endpoint); and `body`, which runs the client through the
/// context (once or several times) and grades what it reported and what it sent. A case never
/// throws: what stops it becomes a verdict (`ClientCaseError.verdict`).
package struct ClientCase: Sendable, Identifiable {
    /// Dotted, stable, matched by `--cases` (e.g. `random.x-fresh`).
    package let id: String
    package let title: String
    package let group: ConformanceGroup
    package let level: RequirementLevel
    /// Where the requirement comes from: a section of docs/protocol.md, an RFC, or the upstream
    /// behaviour it follows.
    package let source: String
    /// What the backend does, in words (the report's "sends").
    package let backendDoes: String
    /// What the client must do, in words.
    package let expects: String
    package let backend: CaseBackend
    let body: @Sendable (ClientCaseContext) async throws(ClientCaseError) -> Verdict

    package init(
        _ id: String, _ group: ConformanceGroup, _ level: RequirementLevel, title: String, source: String,
        backendDoes: String, expects: String, backend: CaseBackend = CaseBackend(),
        _ body: @escaping @Sendable (ClientCaseContext) async throws(ClientCaseError) -> Verdict
    ) {
        self.id = id
        self.title = title
        self.group = group
        self.level = level
        self.source = source
        self.backendDoes = backendDoes
        self.expects = expects
        self.backend = backend
        self.body = body
    }

    /// Runs the case; every way it can stop is a verdict.
    func run(_ context: ClientCaseContext) async -> Verdict {
        do {
            return try await body(context)
        } catch {
            return error.verdict(level: level)
        }
    }
}
