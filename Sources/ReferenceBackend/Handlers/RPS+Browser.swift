import CommonFormats
import MPinCrypto
import OrderedJSON

/// The browser's side: access numbers and QR codes, the polling of `/rps/access`, and
/// `/rps/codeStatus` from the phone (docs/protocol.md §3.7, §5, §8.2).
extension BackendCore {
    /// A new access number: six random digits and the check digit of docs/protocol.md §5.1 (numbers whose
    /// check value would be 10 are drawn again), unique among live sessions.
    func getAccessNumber(_ call: Call) async throws(APIError) -> Reply {
        _ = try call.json(allowEmpty: true)
        let now = self.now
        var number = ""
        while true {
            let digits = random.digits(6)
            guard let check = Self.checkDigit(digits) else { continue }
            number = digits + String(check)
            if await !store.hasLiveSession(wid: number, now: now) { break }
        }
        let session = try await newSession(wid: number, now: now, client: call.client)
        return .ok([
            ("ttlSeconds", .integer(Int64(configuration.accessNumberLifetime))), ("accessNumber", .string(number)),
            ("webOTT", .string(session.webOTT)), ("localTimeStart", .integer(now)),
            ("localTimeEnd", .integer(session.expires)),
        ])
    }

    /// The server's check digit of six digits (docs/protocol.md §5.1, ``AccessNumber/rawChecksum(of:)``); nil
    /// when the raw value is 10, which the server never issues (it draws new digits instead).
    static func checkDigit(_ digits: String) -> Int? {
        guard let raw = AccessNumber.rawChecksum(of: digits), raw != 10 else { return nil }
        return raw
    }

    /// A QR code for the browser: `<base>#<access code>`.
    func getQrURL(_ call: Call) async throws(APIError) -> Reply {
        _ = try call.json(allowEmpty: true)
        let now = self.now
        let session = try await newSession(wid: random.hex(16), now: now, client: call.client)
        return .ok([
            ("ttlSeconds", .integer(Int64(configuration.accessNumberLifetime))),
            ("qrUrl", .string(base.url + "#" + session.wid)),
            ("webOTT", .string(session.webOTT)), ("localTimeStart", .integer(now)),
            ("localTimeEnd", .integer(session.expires)),
        ])
    }

    func newSession(
        wid: String, now: Int64, client: ClientAddress, clientID: String = "", redirectURI: String = "",
        state: String = ""
    )
        async throws(APIError) -> BrowserSession
    {
        let session = BrowserSession(
            wid: wid, webOTT: random.hex(16), expires: now + milliseconds(configuration.accessNumberLifetime),
            clientID: clientID, redirectURI: redirectURI, state: state)
        try await store.putSession(session, now: now, client: client)
        return session
    }

    /// The browser's poll, `POST /rps/access {"webOTT"}` (docs/protocol.md §8.2, §13): where its session
    /// stands (`new`, `wid`, `user`, `authenticate`, `aborted`, `expired`), with the user, and the
    /// authOTT only once the phone's login has succeeded and is held for the browser (plus, on the
    /// MFA platform, the redirect carrying an authorization code). A session the browser has
    /// logged in with, or whose time or login timeout ran out, answers `expired`. `statusCode` is
    /// always 0, as the open-source RPS answers.
    func access(_ call: Call) async throws(APIError) -> Reply {
        let webOTT = try call.json().string("webOTT", maxLength: 256)
        switch await store.session(webOTT: webOTT, now: now) {
        case .unknown:
            throw APIError(.notFound, "Unknown webOTT")
        case .expired(let userID):
            return .ok([
                ("status", "expired"), ("statusCode", 0), ("userId", .string(userID)), ("redirectURL", ""),
                ("authOTT", ""),
            ])
        case .live(let session):
            var redirect = ""
            if session.status == .authenticate && !session.browserCode.isEmpty {
                redirect =
                    session.redirectURI + (session.redirectURI.contains("?") ? "&" : "?")
                    + QueryString.build([("code", session.browserCode), ("state", session.state)])
            }
            return .ok([
                ("status", .string(session.status.rawValue)), ("statusCode", 0), ("userId", .string(session.userID)),
                ("redirectURL", .string(redirect)),
                ("authOTT", .string(session.status == .authenticate ? session.authOTT : "")),
            ])
        }
    }

    /// The phone tells the backend about a scanned code: `wid` (answers the session details, with
    /// the keys the SDK reads; the `milagro-oss` profile answers the open-source RPS's capitalised
    /// `PrerollId`, `AppName`, `AppLogoUrl`, docs/protocol.md §3.7, §8.2), `user`, `abort`.
    func codeStatus(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let status = try body.string("status", maxLength: 32)
        let wid = try body.string("wid", maxLength: 256)
        let now = self.now
        switch status {
        case "wid":
            guard await store.updateSession(wid: wid, now: now, { if $0.status == .new { $0.status = .wid } }) != nil
            else {
                throw APIError(.notFound, "Unknown or expired access code")
            }
            if openSource { return .ok([("PrerollId", ""), ("AppName", "MPin Workbench"), ("AppLogoUrl", "")]) }
            return .ok([
                ("prerollId", ""), ("appName", "MPin Workbench"), ("appLogoURL", ""),
                ("customerId", .string(customerID)),
                ("customerName", "MPin Workbench"), ("customerLogoURL", ""),
            ])
        case "user":
            let userID = try body.string("userId", maxLength: 256)
            guard
                await store.updateSession(
                    wid: wid, now: now,
                    {
                        if $0.status == .new || $0.status == .wid { $0.status = .user }
                        $0.userID = userID
                    }) != nil
            else { throw APIError(.notFound, "Unknown or expired access code") }
            return codeStatusAcknowledgement
        case "abort":
            guard
                await store.updateSession(
                    wid: wid, now: now, { if $0.status != .authenticate { $0.status = .aborted } }) != nil
            else {
                throw APIError(.notFound, "Unknown or expired access code")
            }
            return codeStatusAcknowledgement
        default:
            throw APIError(.badRequest, "status must be wid, user or abort")
        }
    }

    /// The answer to codeStatus `user` and `abort`: the platform's `{"status":"OK","message":""}`, or
    /// the open-source RPS's `{"Status":"OK"}` under the `milagro-oss` profile (docs/protocol.md §3.7, §8.2).
    private var codeStatusAcknowledgement: Reply {
        openSource ? .ok([("Status", "OK")]) : .ok([("status", "OK"), ("message", "")])
    }
}
