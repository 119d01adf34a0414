import Foundation
import MPinCrypto

/// The RPS's access-number flow (servers/rps/rps.py, servers/rps/mobile_flow.py) and its private
/// `/authenticate` and `/loginResult`, which the demo RPA's login calls, for the `milagro-oss`
/// profile (docs/protocol.md §8.2, §13). The RPS runs with `waitForLoginResult` on, its default
/// configuration: the browser's login releases the phone's held login through `/loginResult`.
extension OpenSourceServer {
    /// `RPSGetAccessNumberHandler.post`: seven digits (six and a check digit), a webOTT, 300 seconds.
    func getAccessNumber(_ answer: inout TornadoAnswer) async {
        let now = self.now
        var wid = ""
        for _ in 0..<1000 {
            let six = core.random.digits(6)
            guard let check = BackendCore.checkDigit(six) else { continue }
            wid = six + String(check)
            if !(await store.isWidTaken(wid, now: now)) { break }
        }
        answer.writeJSON(await newSession(wid: wid, now: now, extra: ("accessNumber", .string(wid))))
    }

    /// `RPSGetQrUrlHandler.post`: a UUID as the session id, the QR URL `<rpsBaseURL>#<id>`.
    func getQrURL(_ answer: inout TornadoAnswer) async {
        let wid = core.random.hex(16)
        answer.writeJSON(await newSession(wid: wid, now: now, extra: ("qrUrl", .string(core.base.url + "#" + wid))))
    }

    private func newSession(wid: String, now: Int64, extra: (String, PythonValue)) async -> PythonValue {
        let webOTT = core.random.hex(16)
        let start = now / 1000 * 1000
        await store.addAuth(
            OpenSourceStore.AuthItem(expires: now + 305_000, webOTT: .string(webOTT), wid: .string(wid)), now: now)
        return .display([
            ("ttlSeconds", .int(300)), extra, ("webOTT", .string(webOTT)), ("localTimeStart", .int(start)),
            ("localTimeEnd", .int(start + 300_000)),
        ])
    }

    /// `RPSAccessHanler.post` and `MobileFlow.get_app_status`.
    func access(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        guard case .success(let data) = PythonJSON.loads(request.body) else {
            answer.setStatus(400, reason: "BAD REQUEST. INVALID JSON")
            return
        }
        let webOTT = try Self.uncaught(data.subscripted("webOTT"))
        var status: PythonValue = "new"
        var userID: PythonValue = ""
        var authOTT: PythonValue = ""
        if let item = await store.findAuth(.webOTT(webOTT), now: now) {
            if item.mobileStatus.truthy { status = item.mobileStatus }
            if item.mobileStatus == "user" && item.userID.truthy { userID = item.userID }
            if item.authOTT.truthy && item.status == 200 {
                status = "authenticate"
                authOTT = item.authOTT
            }
        } else {
            status = "expired"
        }
        answer.writeJSON(
            .display([
                ("status", status), ("statusCode", .int(0)), ("userId", userID), ("redirectURL", ""),
                ("authOTT", authOTT),
            ]))
    }

    /// `RPSCodeStatusHandler.post` and `MobileFlow.update_app_status`.
    func codeStatus(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        guard case .success(let data) = PythonJSON.loads(request.body) else {
            answer.setStatus(400, reason: "BAD REQUEST. INVALID JSON")
            return
        }
        let status: PythonValue
        switch data.subscripted("status") {
        case .success(let value): status = value
        case .failure(.keyError):
            answer.setStatus(400, reason: "BAD REQUEST. INVALID DATA")
            return
        case .failure: throw .internalError
        }
        let wid = try Self.uncaught(data.get("wid"))
        let user = try Self.uncaught(data.get("userId"))
        var params = PythonValue.display([("Status", "OK")])
        if await store.updateAuth(
            .wid(wid), now: now,
            {
                $0.mobileStatus = status
                $0.userID = user
            }), status == "wid"
        {
            params = .display([
                ("PrerollId", ""), ("AppName", "Milagro MFA Demo"), ("AppLogoUrl", "http://example.com/icon.jpg"),
            ])
        }
        answer.setStatus(200, reason: "OK")
        answer.writeJSON(params)
    }

    /// `verifyToken` with the attempt rule (`maxInvalidLoginAttempts`, 3): the status and whether
    /// it failed; a failure counts, and the count reaching the limit makes it 410.
    private func verdict(_ token: OpenSourceStore.AuthToken, now: Int64) async -> (status: Int, failed: Bool) {
        let idHex = Hex.encode(token.mpinID)
        var failed = now > token.expires || !token.success
        var status = failed ? 401 : 200
        var attempts = await store.attempts(idHex)
        if attempts >= core.configuration.maximumAttempts { failed = true }
        if !failed {
            await store.setAttempts(idHex, nil)
            return (status, false)
        }
        attempts += 1
        await store.setAttempts(idHex, attempts)
        if attempts >= core.configuration.maximumAttempts { status = 410 }
        return (status, true)
    }

    /// The user id in an M-Pin ID (`json.loads(mpin_id)["userID"]`); an uncaught error when it has none.
    private func userID(_ token: OpenSourceStore.AuthToken) throws(Uncaught) -> PythonValue {
        let document = try Self.uncaught(PythonJSON.loads(token.mpinID))
        return try Self.uncaught(document.subscripted("userID"))
    }

    /// `json.loads(body)["mpinResponse"]["authOTT"]`, as both the RPS's and the demo RPA's login
    /// handlers read it: a body that is not JSON is 400 `BAD REQUEST. INVALID JSON`, a missing key
    /// 400 with `missingReason` (each handler has its own), nil then; any other Python error is
    /// uncaught (500).
    static func mpinResponseAuthOTT(_ request: Request, missingReason: String, _ answer: inout TornadoAnswer)
        throws(Uncaught) -> PythonValue?
    {
        guard case .success(let data) = PythonJSON.loads(request.body) else {
            answer.setStatus(400, reason: "BAD REQUEST. INVALID JSON")
            return nil
        }
        switch data.subscripted("mpinResponse").flatMap({ $0.subscripted("authOTT") }) {
        case .success(let value): return value
        case .failure(.keyError):
            answer.setStatus(400, reason: missingReason)
            return nil
        case .failure: throw .internalError
        }
    }

    /// `RPSAuthenticateHandler.post`, the phone's login: 412 for an unknown authOTT, 401/410
    /// `Wrong PIN.`, or a right PIN held until the browser logs in (200 with the logout data) or
    /// `MOBILE_LOGIN_AUTHENTICATION_TIMEOUT_SECONDS` pass (408), whatever kind of login the authOTT is.
    func mobileAuthenticate(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        guard let authOTT = try Self.mpinResponseAuthOTT(request, missingReason: "BAD REQUEST. INVALID DATA", &answer)
        else { return }
        let now = self.now
        guard let id = await store.id(.authOTT(authOTT), now: now), let item = await store.item(id),
            let token = item.token
        else {
            answer.setStatus(412, reason: "Invalid or expired access number")
            answer.writeJSON(.display([("message", "Invalid or expired access number")]))
            return
        }
        _ = try userID(token)
        let (status, failed) = await verdict(token, now: now)
        if failed {
            await store.updateAuth(id: id, now: now) {
                $0.status = status
                $0.message = "Wrong PIN."
            }
            answer.setStatus(status, reason: "Wrong PIN.")
            answer.writeJSON(.display([("message", "Wrong PIN.")]))
            return
        }
        let message = "Authentication successful"
        let hold = authOTT.indexKey
        core.store.holds.open(hold)
        await store.updateAuth(id: id, now: now) {
            $0.status = 200
            $0.message = message
        }
        let limit = core.configuration.loginTimeout
        _ = await core.store.holds.outcome(
            of: hold, clock: core.clock, deadline: now + core.milliseconds(limit),
            realTimeLimit: .milliseconds(core.milliseconds(limit)))
        guard let final = await store.item(id), final.browserReady else {
            answer.setStatus(408, reason: "Authentication timed out")
            answer.writeJSON(.display([("message", "Authentication timed out")]))
            return
        }
        answer.setStatus(200, reason: message)
        answer.writeJSON(
            .display([
                ("logoutURL", .string(final.logoutURL ?? "")),
                ("logoutData", final.logoutData.truthy ? final.logoutData : ""),
            ]))
    }

    /// The RPS's private `AuthenticateHandler.post` as the demo RPA reads its answer: the status,
    /// message and user id (500 `Server error` when the answer has none).
    func rpsVerdict(authOTT: PythonValue, logoutData: PythonValue) async -> (Int, String, String) {
        let now = self.now
        guard let id = await store.id(.authOTT(authOTT), now: now), let item = await store.item(id),
            let token = item.token
        else {
            return (408, "Expired authentication request", "")
        }
        guard case .success(let document) = PythonJSON.loads(token.mpinID),
            case .success(let user) = document.subscripted("userID")
        else {
            return (500, "Server error", "")
        }
        let userID = Self.str(user)
        if let status = item.status, status != 0 {
            await store.updateAuth(id: id, now: now) {
                $0.logoutData = logoutData
                $0.logoutURL = Self.logoutURL
                $0.browserReady = false
            }
            return (status, item.message ?? "", userID)
        }
        let (status, failed) = await verdict(token, now: now)
        return (status, failed ? "Wrong PIN." : "Authentication successful", userID)
    }

    /// The RPS's private `LoginResultHandler.post` with status 200: the logout data for the phone,
    /// the browser ready (the held phone login answers), the item deleted.
    func loginResult(authOTT: PythonValue, logoutData: PythonValue) async {
        guard let id = await store.id(.authOTT(authOTT), now: now) else { return }
        await store.updateAuth(id: id, now: now) {
            $0.logoutURL = $0.logoutURL ?? Self.logoutURL
            $0.logoutData = logoutData
            $0.browserReady = true
        }
        await store.deleteAuth(id: id, now: now)
        _ = core.store.holds.resolve(authOTT.indexKey, .loggedIn(sessionToken: "", userID: ""))
    }
}
