/// Who takes part in an M-Pin flow (PROTOCOL §2, §8): the client and the browser, and the
/// services the client settings point it at.
public enum ProtocolParty: String, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    /// The M-Pin client (the SDK, in an app).
    case client
    /// The browser of a web login: the access-number or QR page, its polls and its PIN pad's login.
    case browser
    /// The relying-party service (M-Pin server): settings, registration, passes 1 and 2, access numbers.
    case rps
    /// The local D-TA, which issues the first client-secret and time-permit share to the RPS.
    case dta1
    /// The second D-TA (Milagro's `certivoxURL`), which issues the second share to the client.
    case dta2
    /// The relying party's application (the demo RPA, the MFA platform's pages): the login.
    case rpa

    /// How diagrams and reports name it: `RPS`, `D-TA 1`, ...
    public var title: String {
        switch self {
        case .client: "Client"
        case .browser: "Browser"
        case .rps: "RPS"
        case .dta1: "D-TA 1"
        case .dta2: "D-TA 2"
        case .rpa: "RPA"
        }
    }

    public var description: String { title }

    /// Which service serves a request path, by the paths the Milagro servers use (first match wins;
    /// a prefix matches the path itself or the path followed by `/`):
    /// * RPS: `/rps`, and the RPS's private endpoints `/user`, `/authenticate`, `/loginResult`;
    /// * D-TA 2 (the second share, Milagro's `certivoxURL`): `/dta2`;
    /// * D-TA 1 (the local share): `/dta1`, `/dta`, and the D-TA's own `/clientSecret`,
    ///   `/serverSecret`, `/timePermit`, `/timePermits`;
    /// * RPA: `/mpinAuthenticate`, `/mpinVerify`, `/mpinActivate`, `/mpinPermitUser`, `/logout`,
    ///   `/service`, `/authzurl`, `/token`.
    public static let servicePrefixes: [(prefix: String, party: ProtocolParty)] = [
        ("/rps", .rps), ("/user", .rps), ("/authenticate", .rps), ("/loginResult", .rps),
        ("/dta2", .dta2),
        ("/dta1", .dta1), ("/dta", .dta1), ("/clientSecret", .dta1), ("/serverSecret", .dta1),
        ("/timePermit", .dta1), ("/timePermits", .dta1),
        ("/mpinAuthenticate", .rpa), ("/mpinVerify", .rpa), ("/mpinActivate", .rpa), ("/mpinPermitUser", .rpa),
        ("/logout", .rpa), ("/service", .rpa), ("/authzurl", .rpa), ("/token", .rpa),
    ]

    /// The services in the order diagrams draw them.
    public static let services: [ProtocolParty] = [.rps, .dta1, .dta2, .rpa]
}
