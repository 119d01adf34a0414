/// Whose answers the reference backend gives, for the same flows (README, "Profiles").
public enum BackendProfile: String, Sendable, CaseIterable, Hashable {
    /// The workbench's own answers: relative URLs in the client settings, `usePermits`, the
    /// capitalisation the SDK reads, no `WWW-Authenticate`, `{"message"}` on every refusal.
    case `default`
    /// What was measured on the open-source Milagro server (RPS, D-TAs, demo RPA; PROTOCOL §13):
    /// absolute URLs, `seedValue`, `PrerollId`/`AppName`/`AppLogoUrl`, `WWW-Authenticate:
    /// Authenticate` on every 401, the demo RPA's bodies, no OTP validity.
    case milagroOSS = "milagro-oss"
}
