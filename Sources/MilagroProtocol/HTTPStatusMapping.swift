/// HTTP status to SDK status, per docs/protocol.md §4: generic rules plus per-request overrides.
public enum HTTPStatusMapping {
    /// The SDK status for a non-200 HTTP status of a request made for `context`.
    ///
    /// Generic: ≥ 500 → HTTP_SERVER_ERROR; 406 → BAD_USER_AGENT; other 4xx → HTTP_REQUEST_ERROR;
    /// anything else that is not 2xx (3xx, 1xx) → NETWORK_ERROR. Overrides by context come first.
    /// The rows marked as later-core only in docs/protocol.md §4 (404 on registration, 412 on the service
    /// details) apply in the MFA-platform flavour only.
    /// A 410 on the RPA login maps to INCORRECT_PIN here; blocking the user is the caller's part.
    /// (The client's `MPinClient.Flavour` has an overload in MPinSDK.)
    public static func status(
        forHTTPStatus http: Int, in context: RequestContext,
        flavour: BackendFlavour = .milagro
    ) -> StatusCode {
        let later = flavour == .mfaPlatform
        switch (context, http) {
        case (.getServiceDetails, 412) where later: return .badClientVersion
        case (.register, 403): return .identityNotAuthorized
        case (.register, 404) where later: return .registrationExpired
        case (.getClientSecret1, 400), (.getClientSecret1, 401): return .identityNotVerified
        case (.getClientSecret1, 404) where later: return .registrationExpired
        case (.getClientSecret2, 408): return .requestExpired
        case (.getTimePermit1, 410), (.getTimePermit2, 410), (.getTimePermit2FromStorage, 410): return .revoked
        case (.authenticateRPA, 401), (.authenticateRPA, 410): return .incorrectPIN
        case (.authenticateRPA, 408): return .requestExpired
        case (.authenticateRPA, 412): return .incorrectAccessNumber
        case (.authenticateRPA, 403): return .identityNotAuthorized
        case (.authenticateRPA, 409): return .clientSecretExpired
        default: break
        }
        switch http {
        case 500...: return .httpServerError
        case 406: return .badUserAgent
        case 400..<500: return .httpRequestError
        case 200..<300: return .ok
        default: return .networkError
        }
    }
}
