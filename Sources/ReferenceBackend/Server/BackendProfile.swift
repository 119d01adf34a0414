/// Whose answers the reference backend gives, for the same flows (README, "Profiles").
public enum BackendProfile: String, Sendable, CaseIterable, Hashable {
    /// The workbench's own answers: relative URLs in the client settings, `usePermits`, the
    /// capitalisation the SDK reads, no `WWW-Authenticate`, `{"message"}` on every refusal.
    case `default`
    /// The open-source Milagro server (RPS, D-TAs, demo RPA; PROTOCOL §13) request for request,
    /// flaws included, derived from its Python and Tornado 4.1 (`OpenSourceServer`): statuses,
    /// reason phrases, header fields in order, bodies.
    case milagroOSS = "milagro-oss"
}
