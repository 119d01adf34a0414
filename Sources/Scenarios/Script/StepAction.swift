/// What a script step does: an actor's action, parsed from the script when it is loaded, so that a
/// misspelt action is a load error and the runner's dispatch is an exhaustive switch (a new action
/// has no handler until the compiler has seen one).
///
/// The raw value of each action is its name in scripts; the declaration order is the catalog's
/// (`ScriptAction.catalog`), which error messages list.
public enum StepAction: Sendable, Hashable, CustomStringConvertible {
    case sdk(SDK)
    case browser(Browser)
    case admin(Admin)
    case clock(Clock)
    case device(Device)

    /// `sdk` actions: the `MPinClient` method of the same name (`finishAuthenticationAC` is the
    /// access-code form of `finishAuthentication`).
    public enum SDK: String, Sendable, CaseIterable, Hashable {
        case initialize, destroy, setBackend, testBackend, setClientID, addTrustedDomain, clearTrustedDomains
        case makeNewUser, deleteUser, listUsers, listAllUsers, listBackends
        case startRegistration, restartRegistration, confirmRegistration, finishRegistration
        case startAuthentication, checkAccessNumber, finishAuthentication, finishAuthenticationOTP,
            finishAuthenticationAN
        case finishAuthenticationAC, finishAuthenticationAuthz
        case canLogout, logout, getServiceDetails, getSessionDetails, abortSession, getAccessCode, clientParameter
    }

    /// `browser` actions: the web side's HTTP requests (docs/protocol.md §8.2, §8.3).
    public enum Browser: String, Sendable, CaseIterable, Hashable {
        case getAccessNumber, getQrUrl, poll, authenticate, accessNumberLogin, session, request
    }

    /// `admin` actions: the operator's requests to the reference backend.
    public enum Admin: String, Sendable, CaseIterable, Hashable {
        case request, mailbox, revoke, restore
    }

    /// `clock` actions: move the frozen clock of an embedded recording.
    public enum Clock: String, Sendable, CaseIterable, Hashable {
        case wait
    }

    /// `device` actions: the MVID DeviceSecurity connector (`ScriptAction+Device.swift`).
    public enum Device: String, Sendable, CaseIterable, Hashable {
        case configure, goOffline, goOnline, registerDevice, applicationLogin, doLogin, excludeLoginGroup,
            includeAllLoginGroups
        case releaseApplicationUsage, releaseDeviceRegistration
    }

    /// The actor whose action it is.
    public var actor: ScriptActor {
        switch self {
        case .sdk: .sdk
        case .browser: .browser
        case .admin: .admin
        case .clock: .clock
        case .device: .device
        }
    }

    /// The action's name in scripts and cassettes.
    public var name: String {
        switch self {
        case .sdk(let action): action.rawValue
        case .browser(let action): action.rawValue
        case .admin(let action): action.rawValue
        case .clock(let action): action.rawValue
        case .device(let action): action.rawValue
        }
    }

    public var description: String { "\(actor.rawValue) \(name)" }

    /// The action `name` of `actor`, if there is one.
    public init?(actor: ScriptActor, name: String) {
        switch actor {
        case .sdk:
            guard let action = SDK(rawValue: name) else { return nil }
            self = .sdk(action)
        case .browser:
            guard let action = Browser(rawValue: name) else { return nil }
            self = .browser(action)
        case .admin:
            guard let action = Admin(rawValue: name) else { return nil }
            self = .admin(action)
        case .clock:
            guard let action = Clock(rawValue: name) else { return nil }
            self = .clock(action)
        case .device:
            guard let action = Device(rawValue: name) else { return nil }
            self = .device(action)
        }
    }

    /// Every action, actor by actor, in declaration order.
    public static let all: [StepAction] =
        SDK.allCases.map(StepAction.sdk) + Browser.allCases.map(StepAction.browser)
        + Admin.allCases.map(StepAction.admin) + Clock.allCases.map(StepAction.clock)
        + Device.allCases.map(StepAction.device)
}
