import OrderedJSON

/// `GET /rps/clientSettings` and `GET /service` (docs/protocol.md §2, §3.0).
extension BackendCore {
    /// Where the client settings point the time-permit storage (docs/protocol.md §2, §8.4): every GET under
    /// it answers 404, so the SDK asks D-TA 2 for share 2.
    static let timePermitsStorageSegment = "timePermitsStorage"

    /// The client settings (docs/protocol.md §2).
    ///
    /// Default profile: relative URLs the client prefixes with the backend URL, `usePermits`, and
    /// `requestOTP: true` because the demo RPA answers a login whose pass 2 asked for an OTP with
    /// the OTP's validity (`expireTime`, `ttlSeconds`, `nowTime`) and any other login with user
    /// data. The open-source server adds `accessNumberURL`/`getAccessNumberURL` only when
    /// `requestOTP` is false (its OTP mode has no browser PIN pad); this backend serves both, so it
    /// keeps them (docs/backend.md, "Reference backend").
    ///
    /// `milagro-oss` profile, as measured on the open-source server (docs/protocol.md §13): absolute URLs
    /// (the base URL and the path), no `usePermits` (permits always used), `requestOTP: false`
    /// (its RPA sends no OTP validity), and `seedValue` (100 random bytes, hex, drawn for each
    /// request from the backend's generator), `setupDoneURL`, `useNFC` and `useWebSocket` (false).
    func clientSettings() -> Reply {
        .json(.ok, .fields(settingsMembers(seedValue: openSource ? random.hex(100) : "")))
    }

    /// The settings' members; `seedValue` is used by the `milagro-oss` and `milagro-hosted-v3`
    /// profiles only (the latter's members are in `MilagroHostedV3.swift`).
    func settingsMembers(seedValue: String) -> [(String, JSONValue)] {
        if hostedV3 { return hostedV3SettingsMembers(seedValue: seedValue) }
        switch configuration.flavour {
        case .milagro where openSource:
            let url = { (path: String) -> JSONValue in .string(self.base.url + path) }
            return [
                ("registerURL", url("/rps/user")), ("signatureURL", url("/rps/signature")), ("certivoxURL", url("/dta2/")),
                ("timePermitsURL", url("/rps/timePermit")), ("timePermitsStorageURL", url("/" + Self.timePermitsStorageSegment)),
                ("appID", .string(appID)), ("mpinAuthServerURL", url("/rps")), ("authenticateURL", url("/mpinAuthenticate")),
                ("mobileAuthenticateURL", url("/rps/authenticate")), ("accessNumberDigits", 7), ("accessNumberUseCheckSum", true),
                ("cSum", 1), ("setDeviceName", false), ("requestOTP", false), ("accessNumberURL", url("/rps/access")),
                ("getAccessNumberURL", url("/rps/getAccessNumber")), ("seedValue", .string(seedValue)),
                ("setupDoneURL", url("/rps/setupDone")), ("useNFC", false), ("useWebSocket", false),
            ]
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

    /// `POST /rps/setupDone/<mpinId>` (`milagro-oss` profile, whose settings name it): the app's
    /// note that its setup is done, which the SDK core never sends (docs/protocol.md §2, §8.2). 200 with an
    /// empty body for an issued M-Pin ID, 404 for another.
    func setupDone(mpinIDHex: String) async throws(APIError) -> Reply {
        _ = try mpinIDBytes(mpinIDHex)
        guard await store.identity(mpinIDHex) != nil else { throw APIError(.notFound, "Unknown M-Pin ID") }
        return .empty(.ok)
    }
}
