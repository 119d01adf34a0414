/// The actions a script step may name, per actor, with their arguments.
///
/// `sdk` actions call the `MPinClient` method of the same name (`finishAuthenticationAC` is the
/// access-code form of `finishAuthentication`); `user` names a user made by `makeNewUser` (the
/// latest one when left out). `browser` and `admin` actions are HTTP requests of the web side and
/// of the operator; `clock` moves the frozen clock of an embedded recording.
public struct ScriptAction: Sendable {
    public var actor: String
    public var name: String
    public var required: [String]
    public var optional: [String]

    init(_ actor: String, _ name: String, required: [String] = [], optional: [String] = []) {
        self.actor = actor
        self.name = name
        self.required = required
        self.optional = optional
    }

    public var allowed: Set<String> { Set(required + optional) }

    public static let actors = ["sdk", "browser", "admin", "clock", "device"]

    public static let catalog: [ScriptAction] = {
        let user = ["user"]
        return [
            .init("sdk", "initialize", optional: ["backend", "rpsPrefix"]),
            .init("sdk", "destroy"),
            .init("sdk", "setBackend", optional: ["url", "rpsPrefix"]),
            .init("sdk", "testBackend", optional: ["url", "rpsPrefix"]),
            .init("sdk", "setClientID", required: ["clientID"]),
            .init("sdk", "addTrustedDomain", required: ["domain"]),
            .init("sdk", "clearTrustedDomains"),
            .init("sdk", "makeNewUser", required: ["id"], optional: ["deviceName"]),
            .init("sdk", "deleteUser", optional: user),
            .init("sdk", "listUsers", optional: ["backend"]),
            .init("sdk", "listAllUsers"),
            .init("sdk", "listBackends"),
            .init("sdk", "startRegistration", optional: user + ["activateCode", "userData", "accessCode", "pushToken"]),
            .init("sdk", "restartRegistration", optional: user + ["userData"]),
            .init("sdk", "confirmRegistration", optional: user + ["pushMessageIdentifier"]),
            .init("sdk", "finishRegistration", required: ["pin"], optional: user + ["secondFactor"]),
            .init("sdk", "startAuthentication", optional: user + ["accessCode"]),
            .init("sdk", "checkAccessNumber", required: ["accessNumber"]),
            .init("sdk", "finishAuthentication", required: ["pin"], optional: user + ["secondFactor"]),
            .init("sdk", "finishAuthenticationOTP", required: ["pin"], optional: user + ["secondFactor"]),
            .init("sdk", "finishAuthenticationAN", required: ["pin", "accessNumber"], optional: user + ["secondFactor"]),
            .init("sdk", "finishAuthenticationAC", required: ["pin", "accessCode"], optional: user + ["secondFactor"]),
            .init("sdk", "finishAuthenticationAuthz", required: ["pin", "accessCode"], optional: user + ["secondFactor"]),
            .init("sdk", "canLogout", optional: user),
            .init("sdk", "logout", optional: user),
            .init("sdk", "getServiceDetails", required: ["url"]),
            .init("sdk", "getSessionDetails", required: ["accessCode"]),
            .init("sdk", "abortSession", required: ["accessCode"]),
            .init("sdk", "getAccessCode", required: ["authorizationURL"]),
            .init("sdk", "clientParameter", required: ["name"]),
            .init("browser", "getAccessNumber"),
            .init("browser", "getQrUrl"),
            .init("browser", "poll", required: ["webOTT"], optional: ["until", "attempts"]),
            .init("browser", "authenticate", required: ["authOTT"]),
            .init("browser", "accessNumberLogin", required: ["webOTT", "url"], optional: ["path", "attempts", "interval"]),
            .init("browser", "session", required: ["session"]),
            .init("browser", "request", optional: ["method", "path", "url", "body"]),
            .init("admin", "request", optional: ["method", "path", "url", "body"]),
            .init("admin", "mailbox", required: ["userId"]),
            .init("admin", "revoke", required: ["userId"]),
            .init("admin", "restore", required: ["userId"]),
            .init("clock", "wait", required: ["seconds"]),
        ] + deviceActions
    }()

    public static func find(actor: String, name: String) -> ScriptAction? {
        catalog.first { $0.actor == actor && $0.name == name }
    }

    public static func names(for actor: String) -> [String] {
        catalog.filter { $0.actor == actor }.map(\.name)
    }
}
