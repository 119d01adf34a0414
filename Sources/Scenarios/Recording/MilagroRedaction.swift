import FlowRecording

extension Redactor {
    /// The secrets of a Milagro M-Pin flow (PROTOCOL.md): the PIN, the token and the client-secret
    /// shares, the one-time tokens (regOTT, authOTT, webOTT), session tokens, the activation key,
    /// and the HTTP credentials. `record` redacts them by default for backends that are not on
    /// loopback; `cassette redact --defaults` adds them.
    public static let milagroFields = [
        "pin", "token", "regOTT", "clientSecretShare", "clientSecret", "authOTT", "webOTT", "sessionToken",
        "activateKey", "Authorization", "Cookie", "Set-Cookie",
    ]
}
