/// `GET /rps/clientSettings` and `GET /service` (PROTOCOL §2, §3.0).
extension BackendCore {
    /// Where the client settings point the time-permit storage (PROTOCOL §2, §8.4): every GET under
    /// it answers 404, so the SDK asks D-TA 2 for share 2.
    static let timePermitsStorageSegment = "timePermitsStorage"

    /// The client settings, with relative URLs the client prefixes with the backend URL.
    ///
    /// `requestOTP` (Milagro flavour) says what the demo RPA does with an OTP: `true`, because it
    /// answers a login whose pass 2 asked for an OTP with the OTP's validity (`expireTime`,
    /// `ttlSeconds`, `nowTime`), and any other login with user data. The open-source server adds
    /// `accessNumberURL`/`getAccessNumberURL` only when `requestOTP` is false (its OTP mode has no
    /// browser PIN pad); this backend serves both, so it keeps them (README, "Reference backend").
    func clientSettings() -> Reply {
        .json(.ok, .object(settingsMembers()))
    }

    func settingsMembers() -> [(String, JSONOut)] {
        switch configuration.flavour {
        case .milagro:
            return [
                ("registerURL", "/rps/user"), ("signatureURL", "/rps/signature"), ("certivoxURL", "/dta2/"),
                ("timePermitsURL", "/rps/timePermit"), ("timePermitsStorageURL", .string("/" + Self.timePermitsStorageSegment)),
                ("usePermits", true), ("appID", .string(appID)),
                ("mpinAuthServerURL", "/rps"), ("authenticateURL", "/mpinAuthenticate"),
                ("mobileAuthenticateURL", "/rps/authenticate"), ("accessNumberDigits", 7),
                ("accessNumberUseCheckSum", true), ("cSum", 1), ("setDeviceName", false), ("requestOTP", true),
                ("accessNumberURL", "/rps/access"), ("getAccessNumberURL", "/rps/getAccessNumber"),
            ]
        case .mfaPlatform:
            return [
                ("registerURL", "/rps/user"), ("signatureURL", "/rps/signature"), ("certivoxURL", "/dta2/"),
                ("dta2URL", "/dta2/"), ("usePermits", false), ("appID", .string(appID)), ("mpinAuthServerURL", "/rps"),
                ("authenticateURL", "/rps/authenticate"), ("mobileAuthenticateURL", "/rps/authenticate"),
                ("codeStatusURL", "/rps/codeStatus"), ("accessNumberDigits", 0), ("accessNumberUseCheckSum", false),
                ("cSum", 0), ("setDeviceName", false), ("requestOTP", false), ("accessNumberURL", "/rps/access"),
                ("getQrUrl", "/rps/getQrUrl"),
            ]
        }
    }

    /// Service details for a scanned QR code's landing URL.
    func service() -> Reply {
        .ok([("name", "MPin Workbench reference backend"), ("url", .string(base.url)), ("rps_prefix", "rps"),
             ("logo_url", ""), ("type", "online")])
    }
}
