import MPinCrypto

/// Authentication: time permits, pass 1, pass 2, and the two places an authOTT is redeemed, the
/// demo RPA's `/mpinAuthenticate` and the RPS's `/rps/authenticate` (PROTOCOL §3.4, §3.6, §6.5, §8.2).
extension BackendCore {
    /// Share 1 of today's time permit and the signature for share 2; 410 for a revoked user.
    func timePermit(mpinIDHex: String) async throws(APIError) -> Reply {
        let id = try mpinIDBytes(mpinIDHex)
        guard await store.identity(mpinIDHex) != nil else { throw APIError(.notFound, "Unknown M-Pin ID") }
        if await store.isRevoked(mpinID: mpinIDHex) { throw APIError(.gone, "User revoked") }
        let now = self.now
        let date = MPin.today(unixTime: now / 1000)
        let hash = mpin.hashID(id)
        let hashHex = Hex.encode(hash)
        return .ok([("date", .int(Int64(date))), ("signature", .string(signer.timePermit(hashMpinID: hashHex, date: date))),
                    ("storageId", .string(hashHex)), ("message", "M-Pin Time Permit Generated"),
                    ("timePermit", .string(Hex.encode(dta1.timePermitShare(hashMpinID: hash, date: date)))), ("version", "0.3")])
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
            guard ut.count == MPin.g1Size else { throw APIError(.badRequest, "Field 'UT' must be \(MPin.g1Size) bytes, not \(ut.count)") }
            try checkG1(ut, "UT")
        }
        guard await store.identity(mpinIDHex) != nil else { throw APIError(.forbidden, "Unknown M-Pin ID") }
        if !usesPermits, await store.isRevoked(mpinID: mpinIDHex) { throw APIError(.gone, "User revoked") }
        let now = self.now
        let y = random.scalar(mpin)
        await store.putPass1(mpinID: mpinIDHex, Pass1Record(u: u, ut: ut.isEmpty ? nil : ut, y: y,
                                                          expires: now + milliseconds(configuration.pass1Lifetime)), now: now)
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
        case .expired: throw APIError(.requestTimeoutStatus, "Pass 1 has expired")
        case .found(let found): record = found
        }
        guard let identity = await store.identity(mpinIDHex) else { throw APIError(.forbidden, "Unknown M-Pin ID") }

        let success = verify(id: id, record: record, v: v, now: now)
        let otp = wantsOTP ? random.digits(6) : nil
        let authOTT = random.hex(16)
        let bound = wid == "0" ? "" : wid
        await store.putAuth(authOTT: authOTT, AuthRecord(mpinID: mpinIDHex, userID: identity.userID, success: success,
                                                         expires: now + milliseconds(configuration.authLifetime), wid: bound,
                                                         otp: otp), now: now)
        var members: [(String, JSONOut)] = [("version", "0.3"), ("pass", 2), ("authOTT", .string(authOTT))]
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
            let result = mpin.server2(date: date, hid: hid, htid: date == 0 ? nil : htid, y: record.y, serverSecret: serverSecret,
                                      u: record.u, ut: date == 0 ? nil : record.ut, v: v)
            if result == .ok { return true }
        }
        return false
    }

    /// The demo RPA's login for a direct authentication: user data, or the OTP's times when an
    /// OTP was issued.
    func rpaAuthenticate(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let authOTT = try body.object("mpinResponse").string("authOTT", maxLength: 256)
        let now = self.now
        switch await store.redeem(authOTT: authOTT, now: now, maximumAttempts: configuration.maximumAttempts) {
        case .unknown, .expired:
            throw APIError(.requestTimeoutStatus, "Expired authentication request")
        case .blocked:
            throw APIError(.gone, "User blocked")
        case .wrongPIN:
            throw APIError(.unauthorized, "Wrong PIN.")
        case .ok(let record):
            if record.otp != nil {
                return .ok([("expireTime", .int(now + 60_000)), ("ttlSeconds", 60), ("nowTime", .int(now))])
            }
            return .ok([("someUserData", "This will be handled by onSuccessLogin handler."), ("userId", .string(record.userID))])
        }
    }

    /// The RPS's login for an access number or code: logs the browser session in and answers
    /// logout data (Milagro) or `{status, message, code}` with an authorization code when asked (MFA).
    func mobileAuthenticate(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let authOTT = try body.object("mpinResponse").string("authOTT", maxLength: 256)
        let authz = body.truthy("authzRequest")
        let mfa = configuration.flavour == .mfaPlatform
        let now = self.now
        func refuse(_ status: Int, _ message: String) -> APIError {
            let code = APIErrorStatus.from(status)
            return mfa ? APIError(code, message, fields: [("status", .int(Int64(status))), ("message", .string(message)), ("code", "")])
                : APIError(code, message)
        }
        let record: AuthRecord
        switch await store.redeem(authOTT: authOTT, now: now, maximumAttempts: configuration.maximumAttempts) {
        case .unknown: throw refuse(412, mfa ? "Invalid or expired authOTT" : "Invalid or expired access number")
        case .expired: throw refuse(408, "Authentication timed out")
        case .blocked: throw refuse(410, mfa ? "Authentication Failed. Invalid Token." : "Wrong PIN.")
        case .wrongPIN: throw refuse(401, mfa ? "Authentication Failed. Invalid Token." : "Wrong PIN.")
        case .ok(let found): record = found
        }

        var session: BrowserSession?
        if !record.wid.isEmpty {
            let token = random.hex(16)
            let browserCode = mfa ? random.hex(16) : ""
            session = await store.updateSession(wid: record.wid, now: now) {
                $0.status = .authenticate
                $0.userID = record.userID
                $0.sessionToken = token
                if !$0.redirectURI.isEmpty { $0.browserCode = browserCode }
            }
            if let session, !session.browserCode.isEmpty {
                await store.putCode(session.browserCode, AuthorizationCode(userID: record.userID, mpinID: record.mpinID,
                                                                           clientID: session.clientID, expires: now + 600_000))
            }
        }
        if mfa {
            var code = ""
            if authz {
                code = random.hex(16)
                await store.putCode(code, AuthorizationCode(userID: record.userID, mpinID: record.mpinID,
                                                            clientID: session?.clientID ?? "", expires: now + 600_000))
            }
            return .ok([("status", 200), ("message", "OK"), ("code", .string(code))])
        }
        guard let session else { return .ok([("message", "OK"), ("userId", .string(record.userID))]) }
        return .ok([("logoutURL", "/logout"),
                    ("logoutData", .object([("userId", .string(record.userID)), ("sessionToken", .string(session.sessionToken))]))])
    }

    /// The mobile logout of a browser session: `{userId, sessionToken}`; 400 when they do not match.
    func logout(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let userID = try body.string("userId", maxLength: 256)
        let token = try body.string("sessionToken", maxLength: 256)
        guard await store.logout(sessionToken: token, userID: userID) else {
            throw APIError(.badRequest, "No browser session for this user and session token")
        }
        return .empty(.ok)
    }
}

import Hummingbird

enum APIErrorStatus {
    static func from(_ code: Int) -> HTTPResponse.Status {
        switch code {
        case 401: return .unauthorized
        case 408: return .requestTimeoutStatus
        case 410: return .gone
        case 412: return .preconditionFailed
        default: return HTTPResponse.Status(code: code)
        }
    }
}
