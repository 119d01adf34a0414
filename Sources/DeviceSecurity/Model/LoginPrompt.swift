/// What the device asks when it needs a login (the document's login UI, here a closure).
public struct LoginPrompt: Sendable, Hashable {
    /// The application being started.
    public var accessIdentifier: String
    /// The login groups offered (every group not excluded), in `LoginGroup.allCases` order.
    public var groups: [LoginGroup]
    /// Why a login is needed: the result of the `applicationLogin` that found the device
    /// unregistered or its borrow time expired.
    public var reason: ServiceResult

    public init(accessIdentifier: String, groups: [LoginGroup], reason: ServiceResult) {
        self.accessIdentifier = accessIdentifier
        self.groups = groups
        self.reason = reason
    }
}

/// The answer to a `LoginPrompt`.
public enum LoginAnswer: Sendable, Hashable {
    /// An MV session id obtained elsewhere: `registerDevice` uses it as is.
    case sessionID(String)
    /// Credentials: the device logs in at the service (`POST /devicesecurity/login`) for a session id.
    case credentials(username: String, password: String, group: LoginGroup)
    /// The user gave up: no access.
    case cancel
}

/// Supplies the login when `doLogin` needs one; nil plays the document's nil parentViewController
/// (no login can be shown, so an unregistered device gets no access at once).
public typealias LoginProvider = @Sendable (LoginPrompt) async -> LoginAnswer
