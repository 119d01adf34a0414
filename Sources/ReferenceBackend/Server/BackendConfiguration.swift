import MPinCrypto
import MilagroProtocol

/// Everything that shapes the backend, fixed when it starts.
public struct BackendConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    public var flavour: BackendFlavour
    public var activation: ActivationMode
    /// Seeds every random value (secrets, y, ids, access numbers); nil uses the system generator.
    public var seed: String?
    public var curve: CurveID
    /// The client id the MFA flavour expects in `X-MIRACL-CID`; nil accepts any non-empty one.
    public var clientID: String?
    /// Largest request body accepted, in bytes (larger ones get 413).
    public var maximumBodySize: Int
    /// How long a request's body may take to arrive after its head; later, 408 and the connection
    /// is closed (`BodyDeadline`, 10 s by default).
    public var bodyTimeout = BodyDeadline.standard
    /// Whether the operator endpoints (`/admin/*`: mailbox, revoke, restore, counts;
    /// `/devicesecurity/admin/*`) answer clients that are not on this machine; off, they get 403.
    public var allowsRemoteAdmin = false
    /// Where the operator endpoints answer: `<prefix>/admin/*` (a prefix such as `/workbench`,
    /// one or more path segments). Nil, the default, puts them at `/admin/*` under the default
    /// profile and turns them off under `milagro-oss` and `milagro-hosted-v3`, whose servers have
    /// none (their paths answer as those servers do); a prefix turns them on there, off the
    /// servers' paths (docs/backend.md, "Operator endpoints"). `serve --admin-prefix`.
    public var operatorPrefix: String?
    /// The most records of each kind the backend keeps for its clients (pending registrations,
    /// identities, pass-1 challenges, pass-2 verdicts, browser sessions, activation and authorization
    /// codes, mailbox messages); what happens at the cap is `BackendStore`'s rule (mostly a 503).
    public var recordLimit = 10_000
    /// The most records of each kind one client (one IPv4 address, one IPv6 /64, `ClientAddress`)
    /// holds: past it, that client's oldest record of the kind makes room (its identities are
    /// refused instead, with 503). Capped by `recordLimit`.
    public var clientRecordLimit = 1_000
    /// Wrong activation codes after which a user's code is cancelled (then the right one is
    /// refused too, until a new code is requested).
    public var activationCodeTries = 3
    /// How often one user may be sent an activation code (`POST /activationCode`, whichever client
    /// asks): 3 at once, then one each 10 minutes; more get 429 and no mail.
    public var activationCodesPerUser = RateLimit(burst: 3, seconds: 600)
    /// How often one client may ask for activation codes, for any users: 10 at once, then one a
    /// minute; more get 429 and no mail.
    public var activationCodesPerClient = RateLimit(burst: 10, seconds: 60)
    /// A user's wrong activation codes, counted across the codes issued to it (a new code brings
    /// no new guesses): 10, then one more an hour. Past it every code of the user is refused (429),
    /// the right one too, until the count has room.
    public var wrongActivationCodesPerUser = RateLimit(burst: 10, seconds: 3_600)
    /// How long a pass-1 challenge y is kept, in seconds.
    public var pass1Lifetime: Double
    /// How long an authOTT from pass 2 may be presented, in seconds.
    public var authLifetime: Double
    /// How long a D-TA signature is valid, in seconds.
    public var signatureLifetime: Double
    /// How long an access number or access code lives, in seconds.
    public var accessNumberLifetime: Double
    /// How long a registration may wait for activation and its signature, in seconds.
    public var registrationLifetime: Double
    /// Failed authentications that block an M-Pin ID.
    public var maximumAttempts: Int
    /// How long the RPS holds a phone's access-number or access-code login with a right PIN,
    /// waiting for the browser to log in at the RPA, in seconds (docs/protocol.md §8.2, §13: the open-source
    /// RPS's `MOBILE_LOGIN_AUTHENTICATION_TIMEOUT_SECONDS`, 10). Measured on the backend's clock and
    /// also capped by as many seconds of real time. More than 0 and at most 3600.
    public var loginTimeout: Double
    /// Whose answers the backend gives: the workbench's own (`default`), the open-source server's
    /// exactly (`milagro-oss`, docs/protocol.md §13), or those of the SDK core's recording
    /// (`milagro-hosted-v3`).
    public var profile: BackendProfile
    /// The origins whose pages may call the default profile from a browser (`CORSPolicy`): nil
    /// lets any origin in (`Access-Control-Allow-Origin: *`, as the open-source server). The
    /// other profiles answer as the servers they model.
    public var corsOrigins: [String]?
    /// `milagro-oss` only: D-TA 2 on an origin of its own (a second port on the same host, its
    /// operations at the root: `/clientSecret`, `/timePermit`, `/tpstorage/…`), as the measured
    /// deployment ran it, and the settings naming it (`certivoxURL`, `timePermitsStorageURL`). Off,
    /// D-TA 2 answers under `/dta2/` of the backend's own origin (the embedded backend's choice:
    /// one origin to record).
    public var dta2OwnOrigin = false
    /// Faults served on purpose, one per endpoint of the table (`ExchangeFault`): each wraps its
    /// endpoint's answer. None by default; the client suite sets them (`conform --client`,
    /// `serve --fault`).
    package var faults: [Endpoint: ExchangeFault] = [:]
    /// Hears of every exchange the backend answers, fault included, before it is sent (the client
    /// suite records each case's exchanges with it). Nil by default.
    package var exchangeObserver: (@Sendable (ObservedExchange) -> Void)?

    public init(
        host: String = "127.0.0.1", port: Int = 0, flavour: BackendFlavour = .milagro,
        activation: ActivationMode = .auto, seed: String? = nil, curve: CurveID = .bn254cx,
        clientID: String? = nil, maximumBodySize: Int = 64 * 1024, loginTimeout: Double = 10,
        profile: BackendProfile = .default
    ) {
        self.host = host
        self.port = port
        self.flavour = flavour
        self.activation = activation
        self.seed = seed
        self.curve = curve
        self.clientID = clientID
        self.maximumBodySize = maximumBodySize
        pass1Lifetime = 15
        authLifetime = 60
        signatureLifetime = 60
        accessNumberLifetime = 300
        registrationLifetime = 3600
        maximumAttempts = 3
        self.loginTimeout = loginTimeout
        self.profile = profile
    }

    /// The largest `loginTimeout`, in seconds (an hour).
    package static let maximumLoginTimeout: Double = 3600

    /// Whether `seconds` is a usable `loginTimeout`: more than 0 and at most an hour.
    package static func isValidLoginTimeout(_ seconds: Double) -> Bool {
        seconds > 0 && seconds <= maximumLoginTimeout
    }

    /// What makes this configuration unusable, if anything: a `loginTimeout` out of range, or the
    /// `milagro-oss` or `milagro-hosted-v3` profile with what those servers do not have (the MFA
    /// platform's flavour, activation codes).
    package var problem: String? {
        if !Self.isValidLoginTimeout(loginTimeout) {
            return
                "loginTimeout must be more than 0 and at most \(Int(Self.maximumLoginTimeout)) seconds, not \(loginTimeout)"
        }
        return profile.problem(flavour: flavour, activation: activation)
    }

    /// The operator endpoints' prefix in force ("" for `/admin/*`), nil when they are off.
    public var operatorMount: String? {
        if let operatorPrefix { return Self.normalizedPrefix(operatorPrefix) }
        return profile == .default ? "" : nil
    }

    /// A prefix as a path: `/` first, none last (`"workbench/"` is `/workbench`).
    static func normalizedPrefix(_ prefix: String) -> String {
        let segments = prefix.split(separator: "/")
        return segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
    }
}
