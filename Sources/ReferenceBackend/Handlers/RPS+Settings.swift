/// `GET /rps/clientSettings` and `GET /service` (PROTOCOL §2, §3.0).
extension BackendCore {
    /// The client settings, with relative URLs the client prefixes with the backend URL.
    func clientSettings() -> Reply {
        .json(.ok, .object(settingsMembers()))
    }

    func settingsMembers() -> [(String, JSONOut)] {
        switch configuration.flavour {
        case .milagro:
            return [
                ("registerURL", "/rps/user"), ("signatureURL", "/rps/signature"), ("certivoxURL", "/dta2/"),
                ("timePermitsURL", "/rps/timePermit"), ("usePermits", true), ("appID", .string(appID)),
                ("mpinAuthServerURL", "/rps"), ("authenticateURL", "/mpinAuthenticate"),
                ("mobileAuthenticateURL", "/rps/authenticate"), ("accessNumberDigits", 7),
                ("accessNumberUseCheckSum", true), ("cSum", 1), ("setDeviceName", false), ("requestOTP", false),
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
