import MilagroProtocol

/// What an HTTP request of an M-Pin flow is, recognised from its method and path against the
/// client settings (docs/protocol.md §2, §3) and the route tables of the open-source servers (the RPS,
/// servers/rps/rps.py; the D-TA, servers/dta/dta.py; the demo RPA, servers/demo/mpinDemo.py): the
/// SDK's requests, the browser's, the servers' own, or something else.
package enum RequestKind: String, Sendable, Hashable, CaseIterable {
    case clientSettings, serviceDetails, register, clientSecret1, clientSecret2, timePermit1, timePermitStorage,
        timePermit2
    case pass1, pass2, authenticate, logout
    /// `POST codeStatusURL` (MFA platform, docs/protocol.md §3.4, §3.7): the phone tells the session
    /// its state (`wid`, `user`, `abort`).
    case codeStatus
    /// `POST authzUrl` (the MFA platform's `/authorize`, docs/protocol.md §3.8): an access code.
    case accessCode
    /// The browser's requests: an access number, a QR URL, and its polling (docs/protocol.md §8.2;
    /// `/rps/access`, and `/rps/accessnumber` of the older backend the SDK core's tests recorded).
    case getAccessNumber, getQrURL, accessNumberPoll
    /// `POST /rps/setupDone/<mpinId>`: named in the open-source server's settings, sent by apps,
    /// never by the SDK core (docs/protocol.md §2).
    case setupDone
    /// Calls between the servers (docs/protocol.md §8): the RPA's `/authenticate` and `/loginResult` to
    /// the RPS, `POST /user/<mpinId>`, the RPS's `/mpinVerify` and `/mpinPermitUser` to the RPA, its
    /// `/serverSecret` and `/timePermits` to a D-TA.
    case serverCall
    /// Pages and helpers of the servers outside the SDK's flow: `/status`, `/dynamicOptions`,
    /// `/manage/getStackInfo`, `/rps/mobileConfig`, the demo RPA's pages (`/`, `/login`,
    /// `/mpinActivate`, `/protected`, `/about`, `/logoutWait`, `/m/…`), the MFA platform's
    /// `/token`, `/authzurl` and `/dvsregister`.
    case auxiliary
    /// A path none of the servers above serves.
    case other

    /// The request context of docs/protocol.md §4, for the SDK's requests.
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
        case .codeStatus: .getSessionDetails
        case .accessCode: .getAccessCode
        case .getAccessNumber, .getQrURL, .accessNumberPoll, .setupDone, .serverCall, .auxiliary, .other: nil
        }
    }

    /// Whether only the browser makes this request (the login, `authenticate`, is either's: see
    /// `FlowChecker.actor`).
    package var isBrowser: Bool { self == .getAccessNumber || self == .getQrURL || self == .accessNumberPoll }

    /// Whether the request is one the SDK core makes (docs/protocol.md §3), so that the flow's order
    /// applies to it.
    package var isSDKs: Bool { context != nil }

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
        case .codeStatus: "code status"
        case .accessCode: "access code"
        case .getAccessNumber: "browser: access number"
        case .getQrURL: "browser: QR URL"
        case .accessNumberPoll: "browser: poll"
        case .setupDone: "app: setup done"
        case .serverCall: "between the servers"
        case .auxiliary: "server page or helper"
        case .other: "unknown path"
        }
    }
}
