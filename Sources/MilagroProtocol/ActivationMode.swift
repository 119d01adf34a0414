/// How a new registration gets activated (the demo RPA's identity check).
public enum ActivationMode: String, Sendable, CaseIterable, Hashable {
    /// Active at once (`forceActivate`): the registration answer says `active: true`.
    case auto
    /// An activation link is "mailed"; opening it (`GET /mpinActivate?i&e&s`) activates the registration.
    case email
    /// An activation code is "mailed" on request (`POST /activationCode {"userId"}`); the app passes
    /// it as `activateCode` when it starts the registration, which is then active at once.
    case code
}
