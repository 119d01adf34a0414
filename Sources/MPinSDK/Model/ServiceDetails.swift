/// What `GET <url>/service` says about an MFA-platform service (docs/protocol.md §3.0).
public struct ServiceDetails: Sendable, Hashable {
    public var name: String
    /// The backend URL to pass to `setBackend`.
    public var backendURL: String
    /// The RPS prefix to pass to `setBackend`.
    public var rpsPrefix: String
    public var logoURL: String

    public init(name: String, backendURL: String, rpsPrefix: String, logoURL: String) {
        self.name = name
        self.backendURL = backendURL
        self.rpsPrefix = rpsPrefix
        self.logoURL = logoURL
    }
}
