import FlowRecording

/// The Milagro services as participants of a cassette's sequence diagram (`cassette diagram`), told
/// from the request's URL path (docs/protocol.md §2, the services and their paths).
extension SequenceDiagram.Participant {
    /// The relying-party service: `/rps/...` and its private endpoints.
    public static let rps = Self(id: "rps", name: "RPS")
    /// The local D-TA, which issues the first client-secret and time-permit share.
    public static let dta1 = Self(id: "dta1", name: "D-TA 1")
    /// The second D-TA (Milagro's `certivoxURL`), which issues the second share.
    public static let dta2 = Self(id: "dta2", name: "D-TA 2")
    /// The relying party's application (the demo RPA and the MFA platform's pages).
    public static let rpa = Self(id: "rpa", name: "RPA")
}

extension SequenceDiagram.ParticipantMap {
    /// Which Milagro service a request goes to (first match wins; a prefix matches the path itself
    /// or the path followed by `/`):
    /// * RPS: `/rps`, and the RPS's private endpoints `/user`, `/authenticate`, `/loginResult`;
    /// * D-TA 2 (the second share, Milagro's `certivoxURL`): `/dta2`;
    /// * D-TA 1 (the local share): `/dta1`, `/dta`, and the D-TA's own `/clientSecret`,
    ///   `/serverSecret`, `/timePermit`, `/timePermits`;
    /// * RPA (the relying party's application): `/mpinAuthenticate`, `/mpinVerify`, `/mpinActivate`,
    ///   `/mpinPermitUser`, `/logout`, `/service`, `/authzurl`, `/token`;
    /// * anything else: a generic "server".
    public static let milagro = Self(rules: [
        ("/rps", .rps), ("/user", .rps), ("/authenticate", .rps), ("/loginResult", .rps),
        ("/dta2", .dta2),
        ("/dta1", .dta1), ("/dta", .dta1), ("/clientSecret", .dta1), ("/serverSecret", .dta1),
        ("/timePermit", .dta1), ("/timePermits", .dta1),
        ("/mpinAuthenticate", .rpa), ("/mpinVerify", .rpa), ("/mpinActivate", .rpa), ("/mpinPermitUser", .rpa),
        ("/logout", .rpa), ("/service", .rpa), ("/authzurl", .rpa), ("/token", .rpa),
    ], serverOrder: [.rps, .dta1, .dta2, .rpa])
}
