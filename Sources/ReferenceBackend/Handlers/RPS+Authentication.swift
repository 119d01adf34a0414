import Hummingbird
import MPinCrypto
import OrderedJSON

/// Authentication: time permits, pass 1, pass 2, and the phone's login for an access number or
/// code, the RPS's `/rps/authenticate` (docs/protocol.md §3.4, §3.6, §6.5, §8.2). The demo RPA's side is in
/// `RPA.swift`.
extension BackendCore {
    /// How many days of share 1 the RPS fetches from D-TA 1 at a time (docs/protocol.md §8.2).
    static let timePermitDayCounts = 7...13

    /// Share 1 of today's time permit and the signature for share 2; 410 for a revoked user.
    ///
    /// As the open-source RPS does (docs/protocol.md §8.2), share 1 comes from the days it keeps
    /// (`BackendStore.timePermitShare`); when today is not among them it fetches D-TA 1's shares
    /// for today and the next days, 7 to 13 in all at random (`permitDays`, `timePermitDayCounts`),
    /// and keeps them in place of the old ones. An app asks for a time permit before every
    /// authentication, so the hash to G1 and the G1 multiplication of a share are spent once per
    /// ID for a week or more, not per authentication.
    func timePermit(mpinIDHex: String) async throws(APIError) -> Reply {
        let id = try mpinIDBytes(mpinIDHex)
        guard await store.identity(mpinIDHex) != nil else { throw APIError(.notFound, "Unknown M-Pin ID") }
        if await store.isRevoked(mpinID: mpinIDHex) { throw APIError(.gone, "User revoked") }
        let now = self.now
        let date = MPin.today(unixTime: now / 1000)
        let hash = mpin.hashID(id)
        let hashHex = Hex.encode(hash)
        let share: [UInt8]
        if let kept = await store.timePermitShare(mpinIDHex, date: date) {
            share = kept
        } else {
            let count =
                Self.timePermitDayCounts.lowerBound + Int(permitDays.uniform(UInt64(Self.timePermitDayCounts.count)))
            let shares = (0..<UInt32(count)).map { dta1.timePermitShare(hashMpinID: hash, date: date &+ $0) }
            share = shares[0]
            if !shares.contains(where: \.isEmpty) { await store.keepTimePermitShares(mpinIDHex, from: date, shares) }
        }
        return .ok([
            ("date", .integer(Int64(date))), ("signature", .string(signer.timePermit(hashMpinID: hashHex, date: date))),
            ("storageId", .string(hashHex)), ("message", "M-Pin Time Permit Generated"),
            ("timePermit", .string(Hex.encode(share))), ("version", "0.3"),
        ])
    }

    /// Takes U (and UT with time permits) and answers a fresh challenge y, kept for
    /// `pass1Lifetime` seconds.
    func pass1(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let mpinIDHex = try body.string("mpin_id", maxLength: 4096)
        _ = try mpinIDBytes(mpinIDHex)
        let u = try body.hex("U", count: MPin.g1Size)
        let ut = try body.hex("UT", allowEmpty: !usesPermits)
        try checkG1(u, "U")
        if !ut.isEmpty {
            guard ut.count == MPin.g1Size else {
                throw APIError(.badRequest, "Field 'UT' must be \(MPin.g1Size) bytes, not \(ut.count)")
            }
            try checkG1(ut, "UT")
        }
        guard await store.identity(mpinIDHex) != nil else { throw APIError(.forbidden, "Unknown M-Pin ID") }
        if !usesPermits, await store.isRevoked(mpinID: mpinIDHex) { throw APIError(.gone, "User revoked") }
        let now = self.now
        let y = random.scalar(mpin)
        try await store.putPass1(
            mpinID: mpinIDHex,
            Pass1Record(
                u: u, ut: ut.isEmpty ? nil : ut, y: y,
                expires: now + milliseconds(configuration.pass1Lifetime)), now: now, client: call.client)
        return .ok([("version", "0.3"), ("y", .string(Hex.encode(y))), ("pass", 1), ("message", "OK")])
    }

    /// Verifies V with SERVER_2 (today's date with time permits, also yesterday's during the first
    /// hour of a day) and answers an authOTT; always 200, the verdict waits for the authOTT.
    func pass2(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let mpinIDHex = try body.string("mpin_id", maxLength: 4096)
        let id = try mpinIDBytes(mpinIDHex)
        let v = try body.hex("V", count: MPin.g1Size)
        try checkG1(v, "V")
        let wid = try body.string("WID", nonEmpty: false, maxLength: 256)
        let wantsOTP = body.truthy("OTP")
        let now = self.now
        let record: Pass1Record
        switch await store.takePass1(mpinID: mpinIDHex, now: now) {
        case .none: throw APIError(.forbidden, "Invalid pass one data: no pass 1 for this M-Pin ID")
        case .expired: throw APIError(.requestTimeout, "Pass 1 has expired")
        case .found(let found): record = found
        }
        guard let identity = await store.identity(mpinIDHex) else { throw APIError(.forbidden, "Unknown M-Pin ID") }

        // The pairing check (about half a millisecond) runs on the global executor rather than on
        // this connection's event loop, so that the cores share it whichever loop the connection
        // is on: pinned to the loops, one loop's queue grew while the other core idled.
        let success = await withTaskExecutorPreference(globalConcurrentExecutor) {
            verify(id: id, record: record, v: v, now: now)
        }
        let otp = wantsOTP ? random.digits(6) : nil
        let authOTT = random.hex(16)
        let bound = wid == "0" ? "" : wid
        try await store.putAuth(
            authOTT: authOTT,
            AuthRecord(
                mpinID: mpinIDHex, userID: identity.userID, success: success,
                expires: now + milliseconds(configuration.authLifetime), wid: bound,
                otp: otp), now: now, client: call.client)
        var members: [(String, JSONValue)] = [("version", "0.3"), ("pass", 2), ("authOTT", .string(authOTT))]
        if let otp { members.append(("OTP", .string(otp))) }
        return .ok(members)
    }

    /// SERVER_1 and SERVER_2 for the dates that may apply.
    func verify(id: [UInt8], record: Pass1Record, v: [UInt8], now: Int64) -> Bool {
        var dates: [UInt32] = [0]
        if usesPermits {
            let today = MPin.today(unixTime: now / 1000)
            dates = [today]
            if now % 86_400_000 < 3_600_000 && today > 0 { dates.append(today - 1) }
        }
        for date in dates {
            let (hid, htid) = mpin.server1(date: date, id: id)
            let result = mpin.server2(
                date: date, hid: hid, htid: date == 0 ? nil : htid, y: record.y, serverSecret: serverSecret,
                u: record.u, ut: date == 0 ? nil : record.ut, v: v)
            if result == .ok { return true }
        }
        return false
    }

    /// The RPS's login for an access number or code, `POST /rps/authenticate {"mpinResponse":
    /// {"authOTT"}[, "authzRequest"]}` (docs/protocol.md §3.6, §8.2, §13). Refusals are answered at once:
    /// 412 unknown, 408 expired, 401 wrong PIN, 410 blocked. A right PIN for a browser's session
    /// is held: the session shows `authenticate` with the user and the authOTT, and the answer
    /// waits until the browser logs in at the RPA with that authOTT (then 200 with the browser
    /// session's logout data; MFA: `{status, message, code}`), at most `loginTimeout` seconds
    /// (then 408 "Authentication timed out", and the session ends). A direct login (no session)
    /// and an in-app login asking for an authorization code (`authzRequest`, docs/protocol.md §10: the app
    /// itself is the relying party, no browser waits) are answered at once.
    func mobileAuthenticate(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let authOTT = try body.object("mpinResponse").string("authOTT", maxLength: 256)
        let authz = body.truthy("authzRequest")
        let mfa = configuration.flavour == .mfaPlatform
        let now = self.now
        let record: AuthRecord
        switch await store.redeem(authOTT: authOTT, now: now, maximumAttempts: configuration.maximumAttempts) {
        case .unknown: throw mobileRefusal(412, mfa ? "Invalid or expired authOTT" : "Invalid or expired access number")
        case .expired: throw mobileRefusal(408, "Authentication timed out")
        case .blocked: throw mobileRefusal(410, mfa ? "Authentication Failed. Invalid Token." : "Wrong PIN.")
        case .wrongPIN: throw mobileRefusal(401, mfa ? "Authentication Failed. Invalid Token." : "Wrong PIN.")
        case .ok(let found): record = found
        }

        if record.wid.isEmpty {
            return mfa
                ? try await platformLoginAnswer(record, authz: authz, clientID: "", client: call.client)
                : .ok([("message", "OK"), ("userId", .string(record.userID))])
        }
        let browserCode = mfa ? random.hex(16) : ""
        if mfa && authz {
            guard
                let session = await store.updateSession(
                    wid: record.wid, now: now,
                    {
                        $0.status = .authenticate
                        $0.userID = record.userID
                        if !$0.redirectURI.isEmpty { $0.browserCode = browserCode }
                    })
            else { throw mobileRefusal(412, "Invalid or expired authOTT") }
            try await storeBrowserCode(session, record, now: now, client: call.client)
            return try await platformLoginAnswer(record, authz: true, clientID: session.clientID, client: call.client)
        }

        guard
            let session = await store.beginHeldLogin(
                wid: record.wid, authOTT: authOTT, userID: record.userID, browserCode: browserCode,
                now: now)
        else {
            throw mobileRefusal(412, mfa ? "Invalid or expired authOTT" : "Invalid or expired access number")
        }
        // The hold is open: at the record limit the code is not kept (the app backend's /token then refuses it).
        try? await storeBrowserCode(session, record, now: now, client: call.client)
        let outcome = await store.holds.outcome(
            of: authOTT, clock: clock, deadline: now + milliseconds(configuration.loginTimeout),
            realTimeLimit: .milliseconds(milliseconds(configuration.loginTimeout)))
        switch outcome {
        case .timedOut:
            await store.endHeldLogin(authOTT: authOTT)
            throw mobileRefusal(408, "Authentication timed out")
        case .loggedIn(let sessionToken, let userID):
            if mfa {
                return try await platformLoginAnswer(
                    record, authz: false, clientID: session.clientID, client: call.client)
            }
            return .ok([
                ("logoutURL", "/logout"),
                ("logoutData", .fields([("userId", .string(userID)), ("sessionToken", .string(sessionToken))])),
            ])
        }
    }

    /// A refusal of `/rps/authenticate`: `{"message"}`, or the MFA platform's `{status, message, code}`.
    func mobileRefusal(_ status: Int, _ message: String) -> APIError {
        let code = APIErrorStatus.from(status)
        guard configuration.flavour == .mfaPlatform else { return APIError(code, message) }
        return APIError(
            code, message, fields: [("status", .integer(Int64(status))), ("message", .string(message)), ("code", "")])
    }

    /// The MFA platform's login answer, `{status: 200, message: "OK", code}`, with a fresh
    /// authorization code when one was asked for.
    private func platformLoginAnswer(_ record: AuthRecord, authz: Bool, clientID: String, client: ClientAddress)
        async throws(APIError) -> Reply
    {
        var code = ""
        if authz {
            code = random.hex(16)
            try await store.putCode(
                code,
                AuthorizationCode(
                    userID: record.userID, mpinID: record.mpinID, clientID: clientID,
                    expires: now + 600_000), now: now, client: client)
        }
        return .ok([("status", 200), ("message", "OK"), ("code", .string(code))])
    }

    /// Keeps the authorization code of an OIDC session's redirect, for the app backend's `/token`.
    private func storeBrowserCode(_ session: BrowserSession, _ record: AuthRecord, now: Int64, client: ClientAddress)
        async throws(APIError)
    {
        guard !session.browserCode.isEmpty else { return }
        try await store.putCode(
            session.browserCode,
            AuthorizationCode(
                userID: record.userID, mpinID: record.mpinID,
                clientID: session.clientID, expires: now + 600_000), now: now,
            client: client)
    }
}

enum APIErrorStatus {
    static func from(_ code: Int) -> HTTPResponse.Status {
        switch code {
        case 401: return .unauthorized
        case 408: return .requestTimeout
        case 410: return .gone
        case 412: return .preconditionFailed
        default: return HTTPResponse.Status(code: code)
        }
    }
}
