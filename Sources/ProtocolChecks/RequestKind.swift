import MPinSDK

/// What an HTTP request of an M-Pin flow is, recognised from its method and path against the
/// client settings (PROTOCOL.md §2, §3): the SDK's requests, the browser's, or something else.
package enum RequestKind: String, Sendable, Hashable, CaseIterable {
    case clientSettings, serviceDetails, register, clientSecret1, clientSecret2, timePermit1, timePermitStorage, timePermit2
    case pass1, pass2, authenticate, logout
    /// The browser's requests: an access number, and its polling (PROTOCOL.md §8.2).
    case getAccessNumber, accessNumberPoll
    case other

    /// The request context of PROTOCOL.md §4, for the SDK's requests.
    package var context: RequestContext? {
        switch self {
        case .clientSettings: .getClientSettings
        case .serviceDetails: .getServiceDetails
        case .register: .register
        case .clientSecret1: .getClientSecret1
        case .clientSecret2: .getClientSecret2
        case .timePermit1: .getTimePermit1
        case .timePermitStorage: .getTimePermit2FromStorage
        case .timePermit2: .getTimePermit2
        case .pass1: .authenticatePass1
        case .pass2: .authenticatePass2
        case .authenticate: .authenticateRPA
        case .logout: .logout
        case .getAccessNumber, .accessNumberPoll, .other: nil
        }
    }

    /// Whether the browser, not the SDK, makes this request.
    package var isBrowser: Bool { self == .getAccessNumber || self == .accessNumberPoll }

    /// How reports name it: `pass 1`, `client secret share 1`, ...
    package var title: String {
        switch self {
        case .clientSettings: "client settings"
        case .serviceDetails: "service details"
        case .register: "registration"
        case .clientSecret1: "client secret share 1"
        case .clientSecret2: "client secret share 2"
        case .timePermit1: "time permit share 1"
        case .timePermitStorage: "time permit share 2 (storage)"
        case .timePermit2: "time permit share 2"
        case .pass1: "pass 1"
        case .pass2: "pass 2"
        case .authenticate: "login"
        case .logout: "logout"
        case .getAccessNumber: "browser: access number"
        case .accessNumberPoll: "browser: poll"
        case .other: "not an M-Pin request"
        }
    }
}
