import MPinCrypto

/// One run of a client: what the suite tells the driver (the contract's environment,
/// docs/conformance.md "The driver contract"), the case's working folder and the run's time limit.
public struct DriverInvocation: Sendable, Hashable {
    public var flow: ClientFlow
    /// `MPIN_BACKEND`: the base URL, where `/rps/clientSettings` is.
    public var backendURL: String
    /// `MPIN_USER`: the user id to register or log in.
    public var user: String
    /// `MPIN_PIN`: the PIN to enter (a wrong one in `wrong-pin`).
    public var pin: String
    /// `MPIN_ACCESS_NUMBER`: the browser session's access number (`access-number`, `logout`).
    public var accessNumber: String?
    /// `MPIN_ACTIVATION_CODE`: the code a backend with code activation mailed to the user, to pass
    /// to `startRegistration`.
    public var activationCode: String?
    /// `MPIN_CLIENT_ID`: the MFA platform's client id (`X-MIRACL-CID`); set only on that flavour.
    public var clientID: String?
    /// `MPIN_AUTHORIZE_URL`: the MFA platform's OIDC authorize URL, where an access code comes
    /// from (a registration's `wid`, `platform-login`).
    public var authorizeURL: String?
    /// `MPIN_CURVE`: `BN254CX` (Milagro MFA's) or `BN254`.
    public var curve: CurveID
    /// The case's working folder: the client keeps its storage there across the case's runs.
    public var folder: String
    /// The most seconds the run may take; past it the driver is stopped and the run is a driver error.
    public var timeLimit: Double

    public init(
        flow: ClientFlow, backendURL: String, user: String, pin: String, accessNumber: String? = nil,
        activationCode: String? = nil, clientID: String? = nil, authorizeURL: String? = nil,
        curve: CurveID = .bn254cx, folder: String, timeLimit: Double
    ) {
        self.flow = flow
        self.backendURL = backendURL
        self.user = user
        self.pin = pin
        self.accessNumber = accessNumber
        self.activationCode = activationCode
        self.clientID = clientID
        self.authorizeURL = authorizeURL
        self.curve = curve
        self.folder = folder
        self.timeLimit = timeLimit
    }

    /// The contract's variables, in this order; those without a value are left out.
    public var environment: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [
            ("MPIN_BACKEND", backendURL), ("MPIN_FLOW", flow.rawValue), ("MPIN_USER", user), ("MPIN_PIN", pin),
            ("MPIN_CURVE", curve == .bn254 ? "BN254" : "BN254CX"),
        ]
        if let accessNumber { out.append(("MPIN_ACCESS_NUMBER", accessNumber)) }
        if let activationCode { out.append(("MPIN_ACTIVATION_CODE", activationCode)) }
        if let clientID { out.append(("MPIN_CLIENT_ID", clientID)) }
        if let authorizeURL { out.append(("MPIN_AUTHORIZE_URL", authorizeURL)) }
        return out
    }
}
