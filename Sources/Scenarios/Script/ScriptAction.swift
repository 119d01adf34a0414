/// The actions a script step may name, per actor, with their arguments.
///
/// `sdk` actions call the `MPinClient` method of the same name (`finishAuthenticationAC` is the
/// access-code form of `finishAuthentication`); `user` names a user made by `makeNewUser` (the
/// latest one when left out). `browser` and `admin` actions are HTTP requests of the web side and
/// of the operator; `clock` moves the frozen clock of an embedded recording. The actions are
/// `StepAction`'s, and each one's arguments are given by an exhaustive switch, so the catalog has
/// no action without its arguments and the runner none without its handler.
public struct ScriptAction: Sendable {
    public var action: StepAction
    public var actor: String { action.actor.rawValue }
    public var name: String { action.name }
    public var required: [String]
    public var optional: [String]

    init(_ action: StepAction) {
        self.action = action
        (required, optional) = Self.arguments(of: action)
    }

    public var allowed: Set<String> { Set(required + optional) }

    public static let actors = ScriptActor.allCases.map(\.rawValue)

    /// Every action with its arguments, in `StepAction.all`'s order.
    public static let catalog: [ScriptAction] = StepAction.all.map(ScriptAction.init)

    public static func find(actor: String, name: String) -> ScriptAction? {
        guard let actor = ScriptActor(rawValue: actor), let action = StepAction(actor: actor, name: name) else {
            return nil
        }
        return ScriptAction(action)
    }

    public static func names(for actor: String) -> [String] {
        catalog.filter { $0.actor == actor }.map(\.name)
    }

    /// The required and optional arguments of an action.
    static func arguments(of action: StepAction) -> (required: [String], optional: [String]) {
        switch action {
        case .sdk(let action): sdkArguments(action)
        case .browser(let action): browserArguments(action)
        case .admin(let action): adminArguments(action)
        case .clock(.wait): (["seconds"], [])
        case .device(let action): deviceArguments(action)
        }
    }

    static func sdkArguments(_ action: StepAction.SDK) -> (required: [String], optional: [String]) {
        let user = ["user"]
        switch action {
        case .initialize: return ([], ["backend", "rpsPrefix"])
        case .destroy, .clearTrustedDomains, .listAllUsers, .listBackends: return ([], [])
        case .setBackend, .testBackend: return ([], ["url", "rpsPrefix"])
        case .setClientID: return (["clientID"], [])
        case .addTrustedDomain: return (["domain"], [])
        case .makeNewUser: return (["id"], ["deviceName"])
        case .deleteUser, .canLogout, .logout: return ([], user)
        case .listUsers: return ([], ["backend"])
        case .startRegistration: return ([], user + ["activateCode", "userData", "accessCode", "pushToken"])
        case .restartRegistration: return ([], user + ["userData"])
        case .confirmRegistration: return ([], user + ["pushMessageIdentifier"])
        case .finishRegistration, .finishAuthentication, .finishAuthenticationOTP:
            return (["pin"], user + ["secondFactor"])
        case .startAuthentication: return ([], user + ["accessCode"])
        case .checkAccessNumber: return (["accessNumber"], [])
        case .finishAuthenticationAN: return (["pin", "accessNumber"], user + ["secondFactor"])
        case .finishAuthenticationAC, .finishAuthenticationAuthz:
            return (["pin", "accessCode"], user + ["secondFactor"])
        case .getServiceDetails: return (["url"], [])
        case .getSessionDetails, .abortSession: return (["accessCode"], [])
        case .getAccessCode: return (["authorizationURL"], [])
        case .clientParameter: return (["name"], [])
        }
    }

    static func browserArguments(_ action: StepAction.Browser) -> (required: [String], optional: [String]) {
        switch action {
        case .getAccessNumber, .getQrUrl: ([], [])
        case .poll: (["webOTT"], ["until", "attempts"])
        case .authenticate: (["authOTT"], [])
        case .accessNumberLogin: (["webOTT", "url"], ["path", "attempts", "interval"])
        case .session: (["session"], [])
        case .request: ([], ["method", "path", "url", "body"])
        }
    }

    static func adminArguments(_ action: StepAction.Admin) -> (required: [String], optional: [String]) {
        switch action {
        case .request: ([], ["method", "path", "url", "body"])
        case .mailbox, .revoke, .restore: (["userId"], [])
        }
    }
}
