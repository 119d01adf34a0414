import Hummingbird
import OrderedJSON

/// The demo RPA (docs/protocol.md §8.3, §13): the login at `authenticateURL` (`POST /mpinAuthenticate`),
/// the browser sessions it makes (`GET /session`) and the phone's logout of one (`POST /logout`).
extension BackendCore {
    /// The cookie that names the browser session the RPA logged in.
    static let sessionCookie = "mpinSession"

    /// What the demo RPA sends as user data on a login.
    static let someUserData: JSONValue = "This will be handled by onSuccessLogin handler."

    /// `POST /mpinAuthenticate {"mpinResponse": {"authOTT"}}`, the RPA's login.
    ///
    /// * The authOTT of a phone login held for a browser (access number or code): the browser's
    ///   PIN pad picks up the phone's verdict (the open-source RPS's private `/authenticate` gives
    ///   a mobile record's status): the RPA logs the browser session in (a new session token),
    ///   releases the phone with that session's logout data, and answers 200 with user data and
    ///   the session cookie. The phone is released before this answer is written.
    /// * The authOTT of a session whose phone has not logged in yet, or an unknown one: 408
    ///   "Expired authentication request"; the phone's login is left as it was.
    /// * A direct login (Milagro flavour): the verdict of pass 2 (401 wrong PIN, 410 blocked, 408
    ///   expired), with user data, or the OTP's validity when the login asked for an OTP.
    ///
    /// The `milagro-oss` profile answers as the open-source demo RPA (docs/protocol.md §13): user data
    /// without `userId`, `{"someUserData"}` for 401 and 410 too, no cookie, and never the OTP's
    /// validity (its `requestOTP` is off), so an OTP login ends in RESPONSE_PARSE_ERROR on the client.
    func rpaAuthenticate(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let authOTT = try body.object("mpinResponse").string("authOTT", maxLength: 256)
        let now = self.now
        let random = self.random
        if let login = await store.completeHeldLogin(authOTT: authOTT, now: now, makeToken: { random.hex(16) }) {
            if openSource { return .ok([("someUserData", Self.someUserData)]) }
            var headers = HTTPFields()
            headers[.setCookie] = "\(Self.sessionCookie)=\(login.sessionToken); Path=/; HttpOnly"
            return .json(
                .ok, .fields([("someUserData", Self.someUserData), ("userId", .string(login.userID))]), headers: headers
            )
        }
        guard configuration.flavour == .milagro else {
            throw APIError(.requestTimeout, "Expired authentication request")
        }
        switch await store.redeem(
            authOTT: authOTT, now: now, maximumAttempts: configuration.maximumAttempts, directOnly: true)
        {
        case .unknown, .expired:
            throw APIError(.requestTimeout, "Expired authentication request")
        case .blocked:
            if openSource { return .json(.gone, .fields([("someUserData", Self.someUserData)])) }
            throw APIError(.gone, "User blocked")
        case .wrongPIN:
            if openSource { return .json(.unauthorized, .fields([("someUserData", Self.someUserData)])) }
            throw APIError(.unauthorized, "Wrong PIN.")
        case .ok(let record):
            if openSource { return .ok([("someUserData", Self.someUserData)]) }
            if record.otp != nil {
                return .ok([("expireTime", .integer(now + 60_000)), ("ttlSeconds", 60), ("nowTime", .integer(now))])
            }
            return .ok([("someUserData", Self.someUserData), ("userId", .string(record.userID))])
        }
    }

    /// `GET /session` with the `mpinSession` cookie (or `?sessionToken=`): whether the browser
    /// session the RPA logged in is still logged in, `{"status": "loggedIn"|"loggedOut", "userId"}`;
    /// 404 for an unknown session, 400 without a token.
    func browserSession(_ call: Call) async throws(APIError) -> Reply {
        guard let token = call.query["sessionToken"] ?? call.cookie(Self.sessionCookie), !token.isEmpty else {
            throw APIError(.badRequest, "Give the \(Self.sessionCookie) cookie or the sessionToken parameter")
        }
        guard let session = await store.rpaSession(token: token, now: now) else {
            throw APIError(.notFound, "No browser session with this session token")
        }
        return .ok([
            ("status", .string(session.loggedIn ? "loggedIn" : "loggedOut")), ("userId", .string(session.userID)),
        ])
    }

    /// The phone's logout of a browser session, `POST /logout {userId, sessionToken}` (the logout
    /// data of its held login): 200 with an empty body; 400 when no logged-in session matches.
    func logout(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let userID = try body.string("userId", maxLength: 256)
        let token = try body.string("sessionToken", maxLength: 256)
        guard await store.logout(sessionToken: token, userID: userID, now: now) else {
            throw APIError(.badRequest, "No browser session for this user and session token")
        }
        return .empty(.ok)
    }
}
