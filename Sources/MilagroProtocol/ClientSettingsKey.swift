/// The members of the client settings (`GET <backend>/rps/clientSettings`, PROTOCOL §2) that the
/// client, the backend and the checks name; the raw value is the member's name.
public enum ClientSettingsKey: String, Sendable, CaseIterable, Hashable {
    /// `PUT` registers (`<registerURL>/<mpinId>` restarts a registration).
    case registerURL
    /// `GET <signatureURL>/<mpinId>`: client-secret share 1 and the D-TA request's parameters.
    case signatureURL
    /// The second D-TA's base, ending with `/` (`clientSecret`, `timePermit` follow it).
    case certivoxURL
    /// The MFA platform's name of the second D-TA.
    case dta2URL
    /// `GET <timePermitsURL>/<mpinId>`: time-permit share 1.
    case timePermitsURL
    /// Where share 2 of a time permit may be cached.
    case timePermitsStorageURL
    /// Whether time permits are used (default true).
    case usePermits
    case appID
    /// The RPS's base: `pass1` and `pass2` are under it.
    case mpinAuthServerURL
    /// The login of the milagro flavour's app (the RPA's).
    case authenticateURL
    /// The login of an access-number or access-code flow.
    case mobileAuthenticateURL
    case codeStatusURL
    /// The number of digits of an access number (default 7).
    case accessNumberDigits
    /// Whether an access number carries a check digit (default true; see `CheckDigitRule`).
    case accessNumberUseCheckSum
    /// 0 or absent turns the check digit off (`CheckDigitRule`).
    case cSum
    case setDeviceName
    /// Whether the login asks the RPA for an OTP.
    case requestOTP
    /// The browser's poll.
    case accessNumberURL
    /// The browser's request for an access number.
    case getAccessNumberURL
    /// The browser's request for a QR URL (the MFA platform's spelling).
    case getQrUrl
    case seedValue
    case setupDoneURL
    case useNFC
    case useWebSocket
}
