/// An HTTP endpoint of the Milagro backend: its method, its path and who serves it, as the
/// reference backend serves it and the client settings name it (PROTOCOL §2, §3, §8).
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
    /// The service that serves it; nil for the reference backend's operator endpoints.
    public let party: ProtocolParty?
    /// Whether the path goes on with `/<M-Pin ID in hex>` (it must for all but the registration).
    public let takesID: Bool
    /// The flavours whose backend serves it.
    public let flavours: Set<BackendFlavour>
    /// The profiles whose backend serves it (the reference backend's, for each valid pairing of
    /// flavour and profile: `EndpointAgreementTests` holds it to the router both ways).
    public let profiles: Set<BackendProfile>

    init(_ name: String, _ method: String, _ path: String, _ party: ProtocolParty?, takesID: Bool = false,
         flavours: Set<BackendFlavour> = Set(BackendFlavour.allCases), profiles: Set<BackendProfile> = Set(BackendProfile.allCases)) {
        self.name = name
        self.method = method
        self.path = path
        self.party = party
        self.takesID = takesID
        self.flavours = flavours
        self.profiles = profiles
    }

    public var description: String { "\(method) \(path)" + (takesID ? "/<mpinId>" : "") }

    /// The path's last segment (`pass1`, `clientSettings`; `dta2` for a D-TA's base).
    public var lastSegment: String { path.split(separator: "/").last.map(String.init) ?? "" }

    /// Whether a backend of this flavour and profile serves the endpoint.
    public func isServed(flavour: BackendFlavour, profile: BackendProfile) -> Bool {
        flavours.contains(flavour) && profiles.contains(profile)
    }
}

extension Endpoint {
    /// The RPS's prefix the client settings are fetched under, `<backend>/rps/clientSettings`
    /// (`rpsPrefix`, PROTOCOL §2).
    public static let defaultRPSPrefix = "rps"
    /// The RPS's base (`mpinAuthServerURL`): passes 1 and 2 are under it.
    public static let rpsBase = "/rps"

    // The RPS (PROTOCOL §3).
    public static let clientSettings = Endpoint("clientSettings", "GET", "/rps/clientSettings", .rps)
    public static let register = Endpoint("register", "PUT", "/rps/user", .rps)
    public static let signature = Endpoint("signature", "GET", "/rps/signature", .rps, takesID: true)
    public static let timePermit = Endpoint("timePermit", "GET", "/rps/timePermit", .rps, takesID: true, flavours: [.milagro])
    public static let pass1 = Endpoint("pass1", "POST", "/rps/pass1", .rps)
    public static let pass2 = Endpoint("pass2", "POST", "/rps/pass2", .rps)
    /// The phone's login of an access-number or access-code flow (`mobileAuthenticateURL`).
    public static let mobileAuthenticate = Endpoint("mobileAuthenticate", "POST", "/rps/authenticate", .rps)
    /// The MFA platform's `codeStatusURL` (PROTOCOL §3.4, §3.7).
    public static let codeStatus = Endpoint("codeStatus", "POST", "/rps/codeStatus", .rps)
    /// The app's note that its setup is done, named by the open-source server's settings (PROTOCOL §2, §8.2).
    public static let setupDone = Endpoint("setupDone", "POST", "/rps/setupDone", .rps, takesID: true, flavours: [.milagro],
                                           profiles: [.milagroOSS, .milagroHostedV3])

    // The browser's side of an access-number or QR login (PROTOCOL §8.2).
    public static let getAccessNumber = Endpoint("getAccessNumber", "POST", "/rps/getAccessNumber", .rps)
    public static let getQrURL = Endpoint("getQrUrl", "POST", "/rps/getQrUrl", .rps)
    /// The browser's poll (`accessNumberURL` of the default profiles).
    public static let accessNumberPoll = Endpoint("access", "POST", "/rps/access", .rps)
    /// The browser's poll of the backend of the SDK core's recording (`milagro-hosted-v3`).
    public static let hostedAccessNumberPoll = Endpoint("accessnumber", "POST", "/rps/accessnumber", .rps, flavours: [.milagro],
                                                        profiles: [.milagroHostedV3])

    // The D-TAs (PROTOCOL §8.4): `<base>clientSecret?…` and `<base>timePermit?…`.
    public static let dta1 = Endpoint("dta1", "GET", "/dta1/", .dta1, profiles: [.default, .milagroHostedV3])
    /// The second D-TA (`certivoxURL`).
    public static let dta2 = Endpoint("dta2", "GET", "/dta2/", .dta2)
    /// The hosted D-TA's v3 API, the second D-TA of `milagro-hosted-v3`.
    public static let hostedDTA2 = Endpoint("dta2v3", "GET", "/dta2/v3/", .dta2, flavours: [.milagro], profiles: [.milagroHostedV3])
    /// Where the settings point the time-permit storage (`timePermitsStorageURL`): every GET under
    /// it answers 404, so the client asks D-TA 2 for share 2 (PROTOCOL §2, §8.4).
    public static let timePermitsStorage = Endpoint("timePermitsStorage", "GET", "/timePermitsStorage", .dta2, flavours: [.milagro],
                                                    profiles: [.default, .milagroHostedV3])
    /// Where the open-source server's settings point the time-permit storage: under D-TA 2, which
    /// answers every GET there with its 404 (PROTOCOL §13), so the client asks D-TA 2 for share 2.
    public static let openSourceTimePermitsStorage = Endpoint("tpstorage", "GET", "/dta2/tpstorage", .dta2, flavours: [.milagro],
                                                              profiles: [.milagroOSS])
    /// The D-TA operations a client calls.
    public static let clientSecretOperation = "clientSecret"
    public static let timePermitOperation = "timePermit"

    // The RPA (PROTOCOL §3.6, §8.3, §10).
    /// The login (`authenticateURL` of the milagro flavour): the app's, or the browser's PIN pad's.
    public static let rpaAuthenticate = Endpoint("mpinAuthenticate", "POST", "/mpinAuthenticate", .rpa)
    public static let logout = Endpoint("logout", "POST", "/logout", .rpa)
    /// The browser's session page after its login.
    public static let session = Endpoint("session", "GET", "/session", .rpa)
    /// The service details of a scanned code's landing URL (PROTOCOL §3.0).
    public static let service = Endpoint("service", "GET", "/service", .rpa, profiles: [.default, .milagroHostedV3])
    /// The MFA platform's authorization URL and token endpoint.
    public static let authorize = Endpoint("authorize", "GET", "/authorize", .rpa, flavours: [.mfaPlatform], profiles: [.default])
    public static let token = Endpoint("token", "POST", "/token", .rpa, flavours: [.mfaPlatform], profiles: [.default])

    // The operator's endpoints of the reference backend.
    public static let adminMailbox = Endpoint("mailbox", "GET", "/admin/mailbox", nil)
    public static let adminRevoke = Endpoint("revoke", "POST", "/admin/revoke", nil)
    public static let adminRestore = Endpoint("restore", "POST", "/admin/restore", nil)

    /// Every endpoint above.
    public static let all: [Endpoint] = [
        clientSettings, register, signature, timePermit, pass1, pass2, mobileAuthenticate, codeStatus, setupDone,
        getAccessNumber, getQrURL, accessNumberPoll, hostedAccessNumberPoll,
        dta1, dta2, hostedDTA2, timePermitsStorage, openSourceTimePermitsStorage,
        rpaAuthenticate, logout, session, service, authorize, token,
        adminMailbox, adminRevoke, adminRestore,
    ]

    /// The endpoints only the browser calls (the access-number and QR pages and their polls).
    public static let browserEndpoints: [Endpoint] = [getAccessNumber, accessNumberPoll, hostedAccessNumberPoll, getQrURL]
}
