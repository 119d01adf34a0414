import CommonFormats
import MPinCrypto
import MilagroProtocol
import OrderedJSON

extension MPinClient {
    /// Prepares authentication of a REGISTERED user (`StartAuthentication`, docs/protocol.md §3.4): tells a
    /// browser session the user is coming (when an access code is given and the backend has a
    /// `codeStatusURL`; the answer is ignored) and fetches both time-permit shares unless the
    /// backend says `usePermits: false`. Share 2 is reused from the cache when its day matches.
    /// - Throws: REVOKED (410 on a time permit), FLOW_ERROR (state, no backend), ...
    public func startAuthentication(_ user: User, accessCode: String = "") async throws(MPinError) {
        try await perform("startAuthentication", [NamedValue("accessCode", accessCode)], user: user) { () async throws(MPinError) in
            let settings = try requireBackend()
            try requireState(user, [.registered], "StartAuthentication")
            if !settings.codeStatusURL.isEmpty && !accessCode.isEmpty {
                _ = try? await request(.notifyCodeStatus, .post, settings.codeStatusURL, body: .fields([
                    "status": .string("user"), "wid": .string(accessCode), "userId": .string(user.id),
                ]))
            }
            user.update {
                $0.timePermit1 = nil
                $0.timePermitDate = 0
            }
            guard settings.usePermits else { return }
            let record = user.record
            let permit = try await request(.getTimePermit1, .get, settings.timePermitsURL + "/" + record.mpinIDHex)
            let share1 = try requiredHex(permit, "timePermit", context: .getTimePermit1)
            guard let dateValue = permit.json?[first: "date"]?.truncatedIntValue, let date = UInt32(exactly: dateValue) else {
                throw MPinError(.responseParseError, "The time permit has no valid 'date'", context: .init(request: "timePermit"))
            }
            let storageID = permit.string("storageId") ?? ""
            let signature = permit.string("signature") ?? ""

            var share2: [UInt8]?
            if record.timePermitCacheDate == date && !record.timePermitCache.isEmpty {
                share2 = record.timePermitCache
            }
            if share2 == nil, !settings.timePermitsStorageURL.isEmpty, !storageID.isEmpty {
                let url = settings.timePermitsStorageURL + "/" + settings.appID + "/" + String(date) + "/" + storageID
                if let cached = try? await request(.getTimePermit2FromStorage, .get, url, expectJSON: false),
                   let text = cached.response.bodyText, let bytes = Hex.decode(text.trimmed(of: [" ", "\n", "\r", "\t"])),
                   bytes.count == MPin.g1Size {
                    share2 = bytes
                }
            }
            if share2 == nil {
                let url = QueryString.appending([("hash_mpin_id", storageID), ("app_id", settings.appID), ("mobile", "1"), ("signature", signature)],
                                                to: settings.certivoxURL + Endpoint.timePermitOperation)
                let answer = try await request(.getTimePermit2, .get, url)
                share2 = try requiredHex(answer, "timePermit", context: .getTimePermit2)
            }
            let cache = share2 ?? []
            let changed = record.timePermitCacheDate != date || record.timePermitCache != cache
            user.update {
                $0.timePermit1 = share1
                $0.timePermitDate = date
                $0.timePermitCacheDate = date
                $0.timePermitCache = cache
            }
            if changed { try saveUsers() }
        }
    }

    /// Checks an access number's check digit (`CheckAccessNumber`, docs/protocol.md §5.2). Only a
    /// seven-digit number on a backend with the checksum on is checked; anything non-empty passes
    /// otherwise.
    /// - Throws: INCORRECT_ACCESS_NUMBER, with the reason.
    public func checkAccessNumber(_ accessNumber: String) async throws(MPinError) {
        try await perform("checkAccessNumber", [NamedValue("accessNumber", accessNumber)]) { () async throws(MPinError) in
            if accessNumber.isEmpty { throw MPinError(.incorrectAccessNumber, "The access number is empty") }
            let current = settings ?? ClientSettings()
            guard current.checksAccessNumberDigit else { return }
            if let problem = AccessNumber.problem(with: accessNumber) {
                throw MPinError(.incorrectAccessNumber, "Incorrect access number: \(problem)")
            }
        }
    }

    /// Authenticates to the RPA (`FinishAuthentication`, docs/protocol.md §3.6) and returns its answer
    /// (`authResultData`, the response body as text).
    /// - Throws: INCORRECT_PIN (401; 410 also blocks the user and deletes its token),
    ///   PIN_INPUT_CANCELED, FLOW_ERROR, REQUEST_EXPIRED, IDENTITY_NOT_AUTHORIZED, ...
    @discardableResult
    public func finishAuthentication(_ user: User, pin: String, secondFactor: String? = nil) async throws(MPinError) -> String {
        try await perform("finishAuthentication", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? "")],
                          user: user, outputs: { [NamedValue("authResultData", $0)] }) { () async throws(MPinError) in
            try await authenticate(user, pin: pin, secondFactor: secondFactor, accessNumber: "", otp: false, authz: false).text
        }
    }

    /// Authenticates and asks for a one-time password (`FinishAuthenticationOTP`). The OTP comes from
    /// the pass-2 answer, its times from the RPA; when they are missing the OTP's own status says
    /// so (RESPONSE_PARSE_ERROR) while the call succeeds.
    public func finishAuthenticationOTP(_ user: User, pin: String, secondFactor: String? = nil) async throws(MPinError) -> OTP {
        try await perform("finishAuthenticationOTP", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? "")],
                          user: user, outputs: Self.otpOutputs) { () async throws(MPinError) in
            let result = try await authenticate(user, pin: pin, secondFactor: secondFactor, accessNumber: "", otp: true, authz: false)
            var otp = OTP(receivedAt: now(for: "otpReceived"))
            guard let issued = result.pass2[first: "OTP"]?.stringValue ?? result.pass2[first: "OTP"]?.truncatedIntValue.map(String.init), !issued.isEmpty
            else {
                otp.status = MPinStatus(.responseParseError, "OTP not issued")
                return otp
            }
            otp.otp = issued
            otp.ttlSeconds = result.json?[first: "ttlSeconds"]?.truncatedIntValue ?? 0
            otp.expireTime = (result.json?[first: "expireTime"]?.truncatedIntValue ?? 0) / 1000
            otp.nowTime = (result.json?[first: "nowTime"]?.truncatedIntValue ?? 0) / 1000
            if otp.ttlSeconds == 0 || otp.expireTime == 0 || otp.nowTime == 0 {
                otp.status = MPinStatus(.responseParseError, "OTP data is malformed")
            }
            return otp
        }
    }

    /// Authenticates a browser session shown by an access number (`FinishAuthenticationAN`).
    /// Logout data in the answer is kept for `canLogout` / `logout`. The number is not checked
    /// locally; call `checkAccessNumber` first.
    /// - Throws: INCORRECT_ACCESS_NUMBER (412), INCORRECT_PIN (401, 410 blocks), ...
    public func finishAuthenticationAN(_ user: User, pin: String, accessNumber: String,
                                       secondFactor: String? = nil) async throws(MPinError) {
        try await perform("finishAuthenticationAN", [NamedValue("pin", pin), NamedValue("accessNumber", accessNumber),
                                                     NamedValue("secondFactor", secondFactor ?? "")],
                          user: user) { () async throws(MPinError) in
            try await authenticateAccessNumber(user, pin: pin, secondFactor: secondFactor, accessNumber: accessNumber)
        }
    }

    /// MFA platform: authenticates the browser session of an access code (the access-number flow
    /// with the code as `WID`).
    public func finishAuthentication(_ user: User, pin: String, secondFactor: String? = nil,
                                     accessCode: String) async throws(MPinError) {
        try await perform("finishAuthenticationAC", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? ""),
                                                     NamedValue("accessCode", accessCode)],
                          user: user) { () async throws(MPinError) in
            try await authenticateAccessNumber(user, pin: pin, secondFactor: secondFactor, accessNumber: accessCode)
        }
    }

    /// MFA platform in-app login: authenticates with `authzRequest: true` and returns the OIDC
    /// authorization code of the answer (`"code"`).
    public func finishAuthenticationAuthz(_ user: User, pin: String, secondFactor: String? = nil,
                                          accessCode: String) async throws(MPinError) -> String {
        try await perform("finishAuthenticationAuthz", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? ""),
                                                        NamedValue("accessCode", accessCode)],
                          user: user, outputs: { [NamedValue("authorizationCode", $0)] }) { () async throws(MPinError) in
            let result = try await authenticate(user, pin: pin, secondFactor: secondFactor, accessNumber: accessCode,
                                                otp: false, authz: true)
            guard let code = result.json?[first: "code"]?.stringValue else {
                throw MPinError(.responseParseError, "The answer has no authorization 'code'")
            }
            return code
        }
    }

    /// Whether a browser session can be logged out from here (`CanLogout`).
    public func canLogout(_ user: User) async -> Bool {
        (try? await perform("canLogout", [], user: user, outputs: { [NamedValue("canLogout", String($0))] }) { () async throws(MPinError) in
            let record = user.record
            return !record.logoutData.isEmpty && !record.logoutURL.isEmpty
        }) ?? false
    }

    /// Logs the browser session out (`Logout`, docs/protocol.md §3.9): posts the logout data to
    /// `backend + logoutURL`. True on 200 (the data is then forgotten), false otherwise.
    @discardableResult
    public func logout(_ user: User) async -> Bool {
        (try? await perform("logout", [], user: user, outputs: { [NamedValue("loggedOut", String($0))] }) { () async throws(MPinError) in
            let record = user.record
            guard !record.logoutData.isEmpty, !record.logoutURL.isEmpty else {
                throw MPinError.flow("No logout data: authenticate with an access number first")
            }
            let body = (try? JSONParser.parseRefusingByteOrderMark(record.logoutData)) ?? .string(record.logoutData)
            _ = try await request(.logout, .post, backendURL + record.logoutURL, body: body, expectJSON: false)
            user.update {
                $0.logoutData = ""
                $0.logoutURL = ""
            }
            return true
        }) ?? false
    }

    private func authenticateAccessNumber(_ user: User, pin: String, secondFactor: String?,
                                          accessNumber: String) async throws(MPinError) {
        let result = try await authenticate(user, pin: pin, secondFactor: secondFactor, accessNumber: accessNumber,
                                            otp: false, authz: false)
        guard let logoutData = result.json?[first: "logoutData"] else { return }
        let text: String = logoutData.stringValue ?? logoutData.milagroCompact()
        let url = result.json?[first: "logoutURL"]?.stringValue ?? ""
        user.update {
            $0.logoutData = text
            $0.logoutURL = url
        }
    }

    static func otpOutputs(_ otp: OTP) -> [NamedValue] {
        [NamedValue("otp", otp.otp), NamedValue("expireTime", String(otp.expireTime)),
         NamedValue("ttlSeconds", String(otp.ttlSeconds)), NamedValue("nowTime", String(otp.nowTime)),
         NamedValue("status", otp.status.code.name)]
    }

    struct AuthenticationResult {
        var pass2: JSONValue
        var json: JSONValue?
        var text: String
    }

    /// Pass 1, pass 2 and the RPA login (`FinishAuthenticationImpl`, docs/protocol.md §3.6 and §6.4).
    private func authenticate(_ user: User, pin: String, secondFactor: String?, accessNumber: String,
                              otp: Bool, authz: Bool) async throws(MPinError) -> AuthenticationResult {
        let settings = try requireBackend()
        try requireState(user, [.registered], "FinishAuthentication")
        let record = user.record
        let usePermits = settings.usePermits
        if usePermits && (record.timePermit1 == nil || record.timePermitCache.isEmpty) {
            throw MPinError.flow("No time permit: call startAuthentication first")
        }
        let pinValue = try pinScalar(pin)
        let factor = try secondFactor.map { (value: String) throws(MPinError) -> Int32 in
            try pinScalar(value, what: "second factor")
        }
        guard let mpinID = Hex.decode(record.mpinIDHex) else { throw MPinError(.cryptoError, "The M-Pin ID is not hex") }
        guard var token = Hex.decode(record.token), !token.isEmpty else {
            throw MPinError(.storageError, "No token is stored for \(user.id)")
        }
        try reportIdentityHash(mpinID)
        if let factor {
            let input = token
            token = try crypto("restoreFactor", [hex("mpinId", mpinID), NamedValue("factor", String(factor)),
                                                 NamedValue("bits", String(MPin.pinBits)), hex("token", input)],
                               outputNames: ["token"]) {
                mpin.restoreFactor(id: mpinID, factor: factor, bits: MPin.pinBits, token: input).map { [$0] }
            }[0]
        }
        let date: UInt32 = usePermits ? record.timePermitDate : 0
        var permit: [UInt8]?
        if usePermits, let share1 = record.timePermit1 {
            permit = try recombine(share1, record.timePermitCache, "timePermit")
        }
        let x = try randomScalar(purpose: "x")
        var inputs = [NamedValue("date", String(date)), hex("mpinId", mpinID), hex("x", x), NamedValue("pin", String(pinValue)),
                      hex("token", token)]
        if let permit { inputs.append(hex("timePermit", permit)) }
        let pass1Values = try crypto("client1", inputs, outputNames: ["x", "sec", "u", "ut"]) {
            mpin.client1(date: date, id: mpinID, x: x, pin: pinValue, token: token, permit: permit)
                .map { [$0.x, $0.sec, $0.u, $0.ut ?? []] }
        }
        let (sec, u, ut) = (pass1Values[1], pass1Values[2], pass1Values[3])

        let pass1 = try await request(.authenticatePass1, .post, settings.mpinAuthServerURL + "/" + Endpoint.pass1.lastSegment, body: .fields([
            "pass": .integer(1), "mpin_id": .string(record.mpinIDHex), "UT": .string(Hex.encode(ut)), "U": .string(Hex.encode(u)),
        ]))
        let y = try requiredHex(pass1, "y", context: .authenticatePass1)
        let v = try crypto("client2", [hex("x", x), hex("y", y), hex("sec", sec)], outputNames: ["v"]) {
            mpin.client2(x: x, y: y, sec: sec).map { [$0] }
        }[0]
        let pass2 = try await request(.authenticatePass2, .post, settings.mpinAuthServerURL + "/" + Endpoint.pass2.lastSegment, body: .fields([
            "pass": .integer(2), "OTP": .bool(otp), "WID": .string(accessNumber.isEmpty ? "0" : accessNumber),
            "V": .string(Hex.encode(v)), "mpin_id": .string(record.mpinIDHex),
        ]))
        let pass2JSON = pass2.json ?? .object([])
        let authOTT = try required(pass2, "authOTT", context: .authenticatePass2)

        let url = accessNumber.isEmpty ? settings.authenticateURL : settings.mobileAuthenticateURL
        var body: JSONValue
        if options.flavour == .mfaPlatform {
            body = .fields(["mpinResponse": .fields(["authOTT": .string(authOTT)]), "authzRequest": .bool(authz)])
        } else {
            body = .fields(["mpinResponse": pass2JSON])
            if authz { body.set("authzRequest", .bool(true)) }
        }
        do throws(MPinError) {
            let answer = try await request(.authenticateRPA, .post, url, body: body, expectJSON: false)
            let text = answer.response.bodyText ?? ""
            return AuthenticationResult(pass2: pass2JSON, json: try? JSONParser.parseRefusingByteOrderMark(answer.response.body), text: text)
        } catch {
            if error.context.httpStatus == 410 {
                user.update {
                    $0.state = .blocked
                    $0.token = ""
                }
                try saveUsers()
                var blocked = error
                blocked.status.message = "User blocked: \(error.message)"
                throw blocked
            }
            throw error
        }
    }
}
