/// The status codes of the Milagro SDK, in the C++ `MPinSDK::Status::Code` order (raw values 0–16),
/// followed by the three codes of the later MFA-platform core this SDK also implements (17–19),
/// and the workbench's own `REPLAY_DIVERGED` (20), which no server causes.
public enum StatusCode: Int, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case ok = 0
    /// Local: the PIN entry was cancelled (an empty PIN).
    case pinInputCanceled
    /// Local: a crypto operation failed (a value did not decode as a curve point).
    case cryptoError
    /// Local: the storage could not be read, parsed or written.
    case storageError
    /// Local: no HTTP response (no network, bad host or port, timeout), or a redirect.
    case networkError
    /// Local: the response was not JSON, or lacked an expected value.
    case responseParseError
    /// Local: improper use of the SDK (not initialized, no backend, wrong user state, ...).
    case flowError
    /// Remote: the server refuses registration or authentication of the identity.
    case identityNotAuthorized
    /// Remote: the identity has not been verified yet.
    case identityNotVerified
    /// Remote: the registration or authentication request expired.
    case requestExpired
    /// Remote: no time permit (the user is probably suspended).
    case revoked
    /// Remote: wrong PIN.
    case incorrectPIN
    /// Remote or local: wrong access number (checksum or server 412).
    case incorrectAccessNumber
    /// Remote: any other 5xx.
    case httpServerError
    /// Remote: any other 4xx.
    case httpRequestError
    /// Remote: the user agent (or client id) is not supported (406).
    case badUserAgent
    /// Remote: the server master secret expired; register again.
    case clientSecretExpired
    /// Remote: this client version is no longer supported (412 on the service details).
    case badClientVersion
    /// Local: the request URL is not in a trusted domain; nothing was sent.
    case untrustedDomainError
    /// Remote: the registration expired (404 while registering).
    case registrationExpired
    /// Local, replay only: nothing was sent, because the re-run no longer does what the replayed
    /// cassette recorded (the cassette test's divergence report says where and what changed).
    case replayDiverged

    /// The Milagro name, e.g. `PIN_INPUT_CANCELED`.
    public var name: String {
        switch self {
        case .ok: "OK"
        case .pinInputCanceled: "PIN_INPUT_CANCELED"
        case .cryptoError: "CRYPTO_ERROR"
        case .storageError: "STORAGE_ERROR"
        case .networkError: "NETWORK_ERROR"
        case .responseParseError: "RESPONSE_PARSE_ERROR"
        case .flowError: "FLOW_ERROR"
        case .identityNotAuthorized: "IDENTITY_NOT_AUTHORIZED"
        case .identityNotVerified: "IDENTITY_NOT_VERIFIED"
        case .requestExpired: "REQUEST_EXPIRED"
        case .revoked: "REVOKED"
        case .incorrectPIN: "INCORRECT_PIN"
        case .incorrectAccessNumber: "INCORRECT_ACCESS_NUMBER"
        case .httpServerError: "HTTP_SERVER_ERROR"
        case .httpRequestError: "HTTP_REQUEST_ERROR"
        case .badUserAgent: "BAD_USER_AGENT"
        case .clientSecretExpired: "CLIENT_SECRET_EXPIRED"
        case .badClientVersion: "BAD_CLIENT_VERSION"
        case .untrustedDomainError: "UNTRUSTED_DOMAIN_ERROR"
        case .registrationExpired: "REGISTRATION_EXPIRED"
        case .replayDiverged: "REPLAY_DIVERGED"
        }
    }

    /// The general meaning of the code, used when nothing more specific is known.
    public var defaultMessage: String {
        switch self {
        case .ok: "OK"
        case .pinInputCanceled: "PIN input canceled"
        case .cryptoError: "Crypto operation failed"
        case .storageError: "Storage error"
        case .networkError: "Cannot connect to the remote server"
        case .responseParseError: "Cannot parse the response from the remote server"
        case .flowError: "Improper use of the SDK"
        case .identityNotAuthorized: "Identity not authorized"
        case .identityNotVerified: "Identity not verified"
        case .requestExpired: "Request expired"
        case .revoked: "Unable to get a time permit: the user is revoked"
        case .incorrectPIN: "Incorrect PIN"
        case .incorrectAccessNumber: "Incorrect access number"
        case .httpServerError: "The remote server returned a server error"
        case .httpRequestError: "The remote server rejected the request"
        case .badUserAgent: "User agent not supported"
        case .clientSecretExpired: "Client secret expired: register again"
        case .badClientVersion: "Client version not supported"
        case .untrustedDomainError: "The URL is not in a trusted domain"
        case .registrationExpired: "Registration expired"
        case .replayDiverged: "Not sent: the re-run diverged from the replayed cassette"
        }
    }

    /// Looks a code up by its Milagro name.
    public init?(name: String) {
        guard let code = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = code
    }

    public var description: String { name }
}
