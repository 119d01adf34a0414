/// A flow a driver runs for one run of a case: the `MPIN_FLOW` of the driver contract
/// (docs/conformance.md, "The driver contract"). Each is a sequence of SDK calls (the Milagro
/// core's names, docs/protocol.md §3); a driver stops at the first call that does not return OK.
public enum ClientFlow: String, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    /// Sets the backend and registers `MPIN_USER` with `MPIN_PIN`.
    case register
    /// Logs in `MPIN_USER`, registered by an earlier run of the case (its storage is in the
    /// case's folder), with `MPIN_PIN`.
    case login
    /// `register`, then `login`, in one run.
    case registerLogin = "register-login"
    /// A login with `MPIN_PIN`, which is not the user's PIN here: the suite expects INCORRECT_PIN.
    case wrongPIN = "wrong-pin"
    /// A login that asks for a one-time password (`finishAuthenticationOTP`).
    case otp
    /// The phone's login for a browser session: `finishAuthenticationAN` with `MPIN_ACCESS_NUMBER`,
    /// while the suite plays the browser.
    case accessNumber = "access-number"
    /// `access-number`, then `logout` with the logout data it kept.
    case logout
    /// The MFA platform's in-app login: an access code from `MPIN_AUTHORIZE_URL`
    /// (`getAccessCode`), then `startAuthentication` with it and `finishAuthenticationAuthz`.
    case platformLogin = "platform-login"

    public var description: String { rawValue }

    /// The calls a driver makes for the flow, in order (the contract's names). A driver may
    /// report more (the built-in one also reports `initialize`, `setClientID`, `makeNewUser`,
    /// `listUsers` and, for a registration on the MFA platform, `getAccessCode`); the suite grades
    /// the statuses, in order, not the names.
    public var calls: [String] {
        let register = ["setBackend", "startRegistration", "confirmRegistration", "finishRegistration"]
        let login = ["setBackend", "startAuthentication", "finishAuthentication"]
        switch self {
        case .register: return register
        case .login, .wrongPIN: return login
        case .registerLogin: return register + ["startAuthentication", "finishAuthentication"]
        case .otp: return ["setBackend", "startAuthentication", "finishAuthenticationOTP"]
        case .accessNumber: return ["setBackend", "startAuthentication", "finishAuthenticationAN"]
        case .logout: return ["setBackend", "startAuthentication", "finishAuthenticationAN", "logout"]
        case .platformLogin: return ["setBackend", "getAccessCode", "startAuthentication", "finishAuthenticationAuthz"]
        }
    }
}
