/// Whose answers the reference backend gives, for the same flows (docs/backend.md, "Profiles").
public enum BackendProfile: String, Sendable, CaseIterable, Hashable {
    /// The workbench's own answers: relative URLs in the client settings, `usePermits`, the
    /// capitalisation the SDK reads, no `WWW-Authenticate`, `{"message"}` on every refusal.
    case `default`
    /// The open-source Milagro server (RPS, D-TAs, demo RPA; docs/protocol.md §13) request for request,
    /// flaws included, derived from its Python and Tornado 4.1 (`OpenSourceServer`): statuses,
    /// reason phrases, header fields in order, bodies.
    case milagroOSS = "milagro-oss"
    /// The backend the C++ SDK core's unit tests were recorded against (its
    /// `tests/unit_tests_recorded_data.json`): an RPS 0.3 with the demo RPA at one origin, the
    /// hosted D-TA's v3 API as the second D-TA (`certivoxURL` ending `/v3/`) and a time-permit
    /// storage that answers 404. Relative URLs, the browser's `/rps/accessnumber` poll, D-TA
    /// answers with `version` "3", 400s with empty bodies (`MilagroHostedV3.swift`).
    case milagroHostedV3 = "milagro-hosted-v3"
}
