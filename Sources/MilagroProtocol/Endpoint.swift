/// An HTTP endpoint of the Milagro backend: its method, its path and who serves it, as the
/// reference backend serves it and the client settings name it (docs/protocol.md §2, §3, §8).
///
/// The one table of the protocol's paths: the backend's settings, the SDK's requests, the flow
/// checker's defaults, the scenario runner's browser and the importer take them from here.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// A short name for messages and tests (`pass1`, `getAccessNumber`, ...).
    public let name: String
    /// `GET`, `PUT` or `POST`.
    public let method: String
    /// The path, from the backend's root; an endpoint that `takesID` is called at `path/<M-Pin ID>`,
    /// and a D-TA's (`path` ending with `/`) at `path<operation>`.
    public let path: String
    /// The path's segments (`["rps", "pass1"]`; none for the root).
    public let segments: [String]
    /// The service that serves it; nil for the reference backend's operator endpoints, and where it
    /// depends on the deployment (a D-TA at an origin of its own, a server's status page).
    public let party: ProtocolParty?
    /// What may follow the path (`EndpointTail`).
    public let tail: EndpointTail
    /// The flavours whose backend serves it.
    public let flavours: Set<BackendFlavour>
    /// The profiles whose backend serves it (the reference backend's, for each valid pairing of
    /// flavour and profile: `RouteTableTests` holds each profile's routes to it both ways). None
    /// for the open-source servers' routes the reference backend does not serve, which the flow
    /// checker recognises (`Endpoint.recognisedOnly`).
    public let profiles: Set<BackendProfile>

    init(
        _ name: String, _ method: String, _ path: String, _ party: ProtocolParty?, tail: EndpointTail = .none,
        flavours: Set<BackendFlavour> = Set(BackendFlavour.allCases),
        profiles: Set<BackendProfile> = Set(BackendProfile.allCases)
    ) {
        self.name = name
        self.method = method
        self.path = path
        segments = path.split(separator: "/").map(String.init)
        self.party = party
        self.tail = tail
        self.flavours = flavours
        self.profiles = profiles
    }

    /// Whether the path goes on with `/<M-Pin ID in hex>` (it must for all but the registration).
    public var takesID: Bool { tail == .id }

    public var description: String { "\(method) \(path)" + (takesID ? "/<mpinId>" : "") }

    /// The path's last segment (`pass1`, `clientSettings`; `dta2` for a D-TA's base).
    public var lastSegment: String { path.split(separator: "/").last.map(String.init) ?? "" }

    /// Whether a backend of this flavour and profile serves the endpoint.
    public func isServed(flavour: BackendFlavour, profile: BackendProfile) -> Bool {
        flavours.contains(flavour) && profiles.contains(profile)
    }

    /// Whether a request's path, split at `/` and decoded, reaches this endpoint: its segments,
    /// then what `tail` allows.
    public func matches(_ request: [String]) -> Bool {
        guard request.count >= segments.count else { return false }
        for (own, given) in zip(segments, request) where own != given { return false }
        let extra = request.count - segments.count
        switch tail {
        case .none: return extra == 0
        case .id, .operation: return extra == 1
        case .optionalID: return extra <= 1
        case .subtree: return true
        }
    }

    /// The segment after the path's own in a request's path that `matches`: the M-Pin ID, the
    /// operation; nil when there is none.
    public func tailSegment(of request: [String]) -> String? {
        request.count > segments.count ? request[segments.count] : nil
    }
}

extension Endpoint {
    /// The RPS's prefix the client settings are fetched under, `<backend>/rps/clientSettings`
    /// (`rpsPrefix`, docs/protocol.md §2).
    public static let defaultRPSPrefix = "rps"
    /// The RPS's base (`mpinAuthServerURL`): passes 1 and 2 are under it.
    public static let rpsBase = "/rps"

    // The RPS (docs/protocol.md §3).
    public static let clientSettings = Endpoint("clientSettings", "GET", "/rps/clientSettings", .rps)
    public static let register = Endpoint("register", "PUT", "/rps/user", .rps, tail: .optionalID)
    public static let signature = Endpoint("signature", "GET", "/rps/signature", .rps, tail: .id)
    public static let timePermit = Endpoint(
        "timePermit", "GET", "/rps/timePermit", .rps, tail: .id, flavours: [.milagro])
    public static let pass1 = Endpoint("pass1", "POST", "/rps/pass1", .rps)
    public static let pass2 = Endpoint("pass2", "POST", "/rps/pass2", .rps)
    /// The phone's login of an access-number or access-code flow (`mobileAuthenticateURL`).
    public static let mobileAuthenticate = Endpoint("mobileAuthenticate", "POST", "/rps/authenticate", .rps)
    /// The MFA platform's `codeStatusURL` (docs/protocol.md §3.4, §3.7).
    public static let codeStatus = Endpoint("codeStatus", "POST", "/rps/codeStatus", .rps)
    /// The app's note that its setup is done, named by the open-source server's settings (docs/protocol.md §2, §8.2).
    public static let setupDone = Endpoint(
        "setupDone", "POST", "/rps/setupDone", .rps, tail: .id, flavours: [.milagro],
        profiles: [.milagroOSS, .milagroHostedV3])

    // The browser's side of an access-number or QR login (docs/protocol.md §8.2).
    public static let getAccessNumber = Endpoint("getAccessNumber", "POST", "/rps/getAccessNumber", .rps)
    public static let getQrURL = Endpoint("getQrUrl", "POST", "/rps/getQrUrl", .rps)
    /// The browser's poll (`accessNumberURL` of the default profiles).
    public static let accessNumberPoll = Endpoint("access", "POST", "/rps/access", .rps)
    /// The browser's poll of the backend of the SDK core's recording (`milagro-hosted-v3`).
    public static let hostedAccessNumberPoll = Endpoint(
        "accessnumber", "POST", "/rps/accessnumber", .rps, flavours: [.milagro],
        profiles: [.milagroHostedV3])

    // The D-TAs (docs/protocol.md §8.4): `<base>clientSecret?…` and `<base>timePermit?…`.
    public static let dta1 = Endpoint(
        "dta1", "GET", "/dta1/", .dta1, tail: .operation, profiles: [.default, .milagroHostedV3])
    /// The second D-TA (`certivoxURL`).
    public static let dta2 = Endpoint("dta2", "GET", "/dta2/", .dta2, tail: .operation)
    /// The hosted D-TA's v3 API, the second D-TA of `milagro-hosted-v3`.
    public static let hostedDTA2 = Endpoint(
        "dta2v3", "GET", "/dta2/v3/", .dta2, tail: .operation, flavours: [.milagro], profiles: [.milagroHostedV3])
    /// Where the settings point the time-permit storage (`timePermitsStorageURL`): every GET under
    /// it answers 404, so the client asks D-TA 2 for share 2 (docs/protocol.md §2, §8.4).
    public static let timePermitsStorage = Endpoint(
        "timePermitsStorage", "GET", "/timePermitsStorage", .dta2, tail: .subtree, flavours: [.milagro],
        profiles: [.default, .milagroHostedV3])
    /// Where the open-source server's settings point the time-permit storage: under D-TA 2, which
    /// answers every GET there with its 404 (docs/protocol.md §13), so the client asks D-TA 2 for share 2.
    public static let openSourceTimePermitsStorage = Endpoint(
        "tpstorage", "GET", "/dta2/tpstorage", .dta2, tail: .subtree, flavours: [.milagro],
        profiles: [.milagroOSS])
    /// The D-TA operations a client calls.
    public static let clientSecretOperation = "clientSecret"
    public static let timePermitOperation = "timePermit"

    // The RPA (docs/protocol.md §3.6, §8.3, §10).
    /// The login (`authenticateURL` of the milagro flavour): the app's, or the browser's PIN pad's.
    public static let rpaAuthenticate = Endpoint("mpinAuthenticate", "POST", "/mpinAuthenticate", .rpa)
    public static let logout = Endpoint("logout", "POST", "/logout", .rpa)
    /// The browser's session page after its login.
    public static let session = Endpoint("session", "GET", "/session", .rpa)
    /// The service details of a scanned code's landing URL (docs/protocol.md §3.0).
    public static let service = Endpoint("service", "GET", "/service", .rpa, profiles: [.default, .milagroHostedV3])
    /// The MFA platform's authorization URL and token endpoint.
    public static let authorize = Endpoint(
        "authorize", "GET", "/authorize", .rpa, flavours: [.mfaPlatform], profiles: [.default])
    public static let token = Endpoint("token", "POST", "/token", .rpa, flavours: [.mfaPlatform], profiles: [.default])

    /// The activation link of an email (`?i=<mpinId>&s=<key>`); its handler answers every method.
    public static let activate = Endpoint("activate", "GET", "/mpinActivate", .rpa)
    /// The app's request for an activation code to be "mailed" (served when the backend's activation is `code`).
    public static let activationCode = Endpoint("activationCode", "POST", "/activationCode", .rps, profiles: [.default])

    // The open-source demo RPA's own paths (servers/demo/mpinDemo.py) and the RPS's `mobileConfig`.
    /// The demo's page, at `/` and `/login`.
    public static let demoIndex = Endpoint("index", "GET", "/", .rpa, flavours: [.milagro], profiles: [.milagroOSS])
    public static let demoLogin = Endpoint(
        "login", "GET", "/login", .rpa, flavours: [.milagro], profiles: [.milagroOSS])
    /// The RPS's call to the RPA to register a user (`RPAVerifyUserURL`).
    public static let verifyUser = Endpoint(
        "mpinVerify", "POST", "/mpinVerify", .rpa, flavours: [.milagro], profiles: [.milagroOSS])
    /// The RPS's call to the RPA before a time permit (`RPAPermitUserURL`).
    public static let permitUser = Endpoint(
        "mpinPermitUser", "GET", "/mpinPermitUser", .rpa, flavours: [.milagro], profiles: [.milagroOSS])
    public static let mobileConfig = Endpoint(
        "mobileConfig", "GET", "/rps/mobileConfig", .rps, flavours: [.milagro], profiles: [.milagroOSS])

    // The operator's endpoints of the reference backend, and the DeviceSecurity service. At these
    // paths in the default profile only: the servers `milagro-oss` and `milagro-hosted-v3` model
    // have none, so there they are off unless a prefix of their own turns them on.
    public static let adminMailbox = Endpoint("mailbox", "GET", "/admin/mailbox", nil, profiles: [.default])
    public static let adminRevoke = Endpoint("revoke", "POST", "/admin/revoke", nil, profiles: [.default])
    public static let adminRestore = Endpoint("restore", "POST", "/admin/restore", nil, profiles: [.default])
    public static let adminCounts = Endpoint("counts", "GET", "/admin/counts", nil, profiles: [.default])
    /// Every other `/admin/<operation>`: the operator's service answers that it has no such operation.
    public static let adminOperation = Endpoint("admin", "POST", "/admin/", nil, tail: .operation, profiles: [.default])
    /// The DeviceSecurity service (`/devicesecurity/login`, `/registerDevice`, `/applicationLogin`,
    /// `/admin/<operation>`), which tells its operations apart itself.
    public static let deviceSecurity = Endpoint("devicesecurity", "POST", "/devicesecurity", nil, tail: .subtree)

    /// The demo RPA's pages behind a login (servers/demo/mpinDemo.py), which `milagro-oss` serves
    /// as that RPA does.
    public static let demoProtected = Endpoint(
        "protected", "GET", "/protected", .rpa, flavours: [.milagro], profiles: [.milagroOSS])
    public static let demoAbout = Endpoint(
        "about", "GET", "/about", .rpa, flavours: [.milagro], profiles: [.milagroOSS])
    public static let demoLogoutWait = Endpoint(
        "logoutWait", "GET", "/logoutWait", .rpa, flavours: [.milagro], profiles: [.milagroOSS])

    /// The open-source servers' routes (servers/rps/rps.py, servers/dta/dta.py, servers/demo/mpinDemo.py)
    /// and the MFA platform's (docs/protocol.md §10) that no profile of the reference backend
    /// serves: the flow checker recognises them. A D-TA at an origin of its own serves its
    /// operations at the root (`/clientSecret`, `/timePermit`, `/tpstorage/…`).
    public static let recognisedOnly: [Endpoint] = [
        Endpoint("dtaClientSecret", "GET", "/" + clientSecretOperation, nil, profiles: []),
        Endpoint("dtaTimePermit", "GET", "/" + timePermitOperation, nil, profiles: []),
        Endpoint("dtaStorage", "GET", "/tpstorage", nil, tail: .subtree, profiles: []),
        Endpoint("rpsAuthenticate", "POST", "/authenticate", .rps, profiles: []),
        Endpoint("loginResult", "POST", "/loginResult", .rps, profiles: []),
        Endpoint("rpsUser", "POST", "/user", .rps, tail: .id, profiles: []),
        Endpoint("serverSecret", "GET", "/serverSecret", .dta1, profiles: []),
        Endpoint("timePermits", "GET", "/timePermits", .dta1, profiles: []),
        Endpoint("status", "GET", "/status", nil, profiles: []),
        Endpoint("dynamicOptions", "GET", "/dynamicOptions", nil, profiles: []),
        Endpoint("manage", "GET", "/manage", nil, tail: .subtree, profiles: []),
        Endpoint("mobilePages", "GET", "/m", .rpa, tail: .subtree, profiles: []),
        Endpoint("authzurl", "POST", "/authzurl", .rpa, profiles: []),
        Endpoint("dvsregister", "POST", "/dvsregister", .rpa, profiles: []),
    ]

    /// Every endpoint above: those some profile serves, then `recognisedOnly`.
    public static let all: [Endpoint] =
        [
            clientSettings, register, signature, timePermit, pass1, pass2, mobileAuthenticate, codeStatus, setupDone,
            getAccessNumber, getQrURL, accessNumberPoll, hostedAccessNumberPoll,
            dta1, dta2, hostedDTA2, timePermitsStorage, openSourceTimePermitsStorage,
            rpaAuthenticate, logout, session, service, authorize, token, activate, activationCode,
            demoIndex, demoLogin, demoProtected, demoAbout, demoLogoutWait, verifyUser, permitUser, mobileConfig,
            adminMailbox, adminRevoke, adminRestore, adminCounts, adminOperation, deviceSecurity,
        ] + recognisedOnly

    /// The endpoints only the browser calls (the access-number and QR pages and their polls).
    public static let browserEndpoints: [Endpoint] = [
        getAccessNumber, accessNumberPoll, hostedAccessNumberPoll, getQrURL,
    ]
}
