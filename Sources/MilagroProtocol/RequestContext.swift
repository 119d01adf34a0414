/// What an HTTP request is for; the status mapping of PROTOCOL §4 depends on it.
public enum RequestContext: String, Sendable, CaseIterable, Hashable {
    case getClientSettings
    case getServiceDetails
    case register
    case getClientSecret1
    case getClientSecret2
    case getTimePermit1
    /// The cache of time-permit share 2 (`timePermitsStorageURL`); failures fall back to the D-TA.
    case getTimePermit2FromStorage
    case getTimePermit2
    /// `codeStatus` with `status: "user"` from StartAuthentication (result ignored).
    case notifyCodeStatus
    case authenticatePass1
    case authenticatePass2
    case authenticateRPA
    case getSessionDetails
    case abortSession
    case getAccessCode
    case logout
}
