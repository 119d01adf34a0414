import CommonFormats
import Foundation
import MPinCrypto
import MilagroProtocol
import OrderedJSON

/// The RPS (servers/rps/rps.py, servers/rps/mobile_flow.py) of the `milagro-oss` profile, as the
/// demo RPA's proxy reaches it. Its `write_error` body is `{"message": <reason>, "version": "0.3"}`.
extension OpenSourceServer {
    static let version: PythonValue = "0.3"

    func rpsClass(_ request: Request) -> HandlerClass {
        var defaults: [(String, String)] = []
        // `self.request.headers['Origin'] in options.allowOrigin` ("*"): a substring test.
        if let origin = request.header("Origin") {
            defaults.append(("Access-Control-Allow-Origin", origin.isEmpty || origin == "*" ? origin : "*"))
        }
        defaults += [
            ("Access-Control-Allow-Credentials", "true"),
            ("Access-Control-Allow-Methods", "GET,PUT,POST,DELETE,OPTIONS"),
            (
                "Access-Control-Allow-Headers",
                "Content-Type, Depth, User-Agent, X-File-Size, X-Requested-With, X-Requested-By, "
                    + "If-Modified-Since, X-File-Name, Cache-Control, WWW-Authenticate"
            ),
        ]
        return HandlerClass(
            defaultHeaders: defaults,
            writeError: { answer in
                answer.writeJSON(.display([("version", Self.version), ("message", .string(answer.reason))]))
            })
    }

    /// The RPS's answer to a request its port received (through the demo's proxy): the first
    /// route of its table that matches (`TornadoRouteTable.rps`), `OPTIONS` answered by its base
    /// class on every route, a 405 for another method its handler does not define; its catch-all
    /// answers `URI NOT FOUND`. The private routes (`/authenticate`, `/loginResult`, `/user/<id>`)
    /// are the demo's calls, made in the process (`rpsVerdict`, `loginResult`, `activate`); asked
    /// from outside, they answer as their handlers refuse a request without their data.
    func rps(_ request: Request) async -> TornadoAnswer {
        let found = TornadoRouteTable.route(.rps, path: request.path)
        return await execute(
            request, rpsClass(request),
            check: { () throws(Uncaught) in
                if let found, found.route.group == .anything { _ = try Self.decodedGroup(found.group) }
            }
        ) { answer throws(Uncaught) in
            guard let (route, group) = found else { throw .http(404) }
            guard route.defines(request.method) else { return false }
            if request.method == "OPTIONS" {
                answer.setStatus(200, reason: "OK")
                answer.writeJSON(.display([("version", Self.version), ("message", "options request")]))
                return true
            }
            try await self.rpsHandler(route.handler, request, group: group, &answer)
            return true
        }
    }

    /// The RPS's handlers (servers/rps/rps.py, servers/rps/mobile_flow.py), each for its method.
    func rpsHandler(
        _ handler: TornadoRoute.Handler, _ request: Request, group: String, _ answer: inout TornadoAnswer
    ) async throws(Uncaught) {
        switch handler {
        case .rpsRegister: try await register(request, group: group, &answer)
        case .rpsSignature: try await signature(request, mpinID: group, &answer)
        case .rpsTimePermit: try await timePermit(mpinID: group, &answer)
        case .rpsSetupDone: answer.setStatus(200)
        case .rpsAccess: try await access(request, &answer)
        case .rpsGetAccessNumber: await getAccessNumber(&answer)
        case .rpsGetQrUrl: await getQrURL(&answer)
        case .rpsCodeStatus: try await codeStatus(request, &answer)
        case .rpsClientSettings: clientSettings(&answer)
        case .rpsMobileAuthenticate: try await mobileAuthenticate(request, &answer)
        case .rpsPass1: await pass1(request, &answer)
        case .rpsPass2: try await pass2(request, &answer)
        case .rpsMobileConfig: answer.setStatus(403, reason: "No config is available")
        case .rpsStatus:
            answer.setStatus(200, reason: "active")
            answer.writeJSON(.display([("version", Self.version), ("message", "active")]))
        case .rpsService:
            // `json.dumps(options.mobileService)` written as a string: the content type stays HTML.
            answer.write(Array(PythonJSON.dumps(mobileService).utf8))
        case .rpsDynamicOptions:
            answer.setStatus(403, reason: "Dynamic options are disabled")
        case .rpsUser, .rpsAuthenticate, .rpsLoginResult:
            // Their bodies come from the demo RPA; without the members they read: 400.
            guard case .success = PythonJSON.loads(request.body) else {
                answer.setStatus(400, reason: "BAD REQUEST. INVALID JSON")
                return
            }
            answer.setStatus(
                400, reason: handler == .rpsUser ? "BAD REQUEST. INVALID JSON" : "BAD REQUEST. INVALID DATA")
        case .rpsStackInfo:
            // The API server it asks is not reachable from the profile: the handler's own 500.
            answer.setStatus(500)
        default:
            switch request.method {
            case "GET", "POST", "PUT", "DELETE":
                answer.setStatus(404, reason: "URI NOT FOUND")
                answer.writeJSON(
                    .display([
                        ("version", Self.version), ("service_name", "M-Pin authentication server"),
                        ("message", "URI NOT FOUND"),
                    ]))
            default: throw .http(405)
            }
        }
    }

    /// The RPS's `mobileService` of its default configuration.
    var mobileService: PythonValue {
        .display([
            ("name", "Milagro MFA Demo"), ("url", .string(core.base.url + "/")), ("rps_prefix", "rps"),
            ("logo_url", "http://example.com/icon.jpg"), ("type", "online"),
        ])
    }

    var now: Int64 { core.now }

    /// `datetime.isoformat()`: microseconds when not zero.
    static func isoformat(_ milliseconds: Int64) -> String {
        let base = String(CivilTime.iso8601(milliseconds: milliseconds).dropLast())
        let fraction = ((milliseconds % 1000) + 1000) % 1000
        return fraction == 0 ? base : base + "." + String(format: "%03d", fraction) + "000"
    }

    /// `urllib.urlencode` of Python 2 (`quote_plus` of `str(value)`), in the dict's order.
    static func urlencode(_ members: [(String, String)]) -> String {
        let order = PythonDict(inserting: members.map(\.0), display: true).keys
        let values = Dictionary(members, uniquingKeysWith: { $1 })
        // Python 2's `quote_plus` keeps RFC 3986's unreserved characters but `~`.
        func quotePlus(_ s: String) -> String {
            QueryString.percentEncode(
                s, keeping: { QueryString.isUnreserved($0) && $0 != UInt8(ascii: "~") }, spaceAsPlus: true)
        }
        return order.map { quotePlus($0) + "=" + quotePlus(values[$0] ?? "") }.joined(separator: "&")
    }

    /// Python's `str()` of a value formatted into a message (`"{0}{1}".format(...)`).
    static func str(_ value: PythonValue) -> String { value.string ?? PythonJSON.dumps(value) }

    /// `ClientSettingsHandler.get`.
    func clientSettings(_ answer: inout TornadoAnswer) {
        answer.setHeader("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate")
        answer.setHeader("Pragma", "no-cache")
        answer.setHeader("Expires", "Sat, 26 Jul 1997 05:00:00 GMT")
        // The members and their insertion order are the profile's settings (`ClientSettingsLayout`):
        // the handler's dict literal of 18, then the two added when `requestOTP` is off.
        let members = ClientSettingsLayout.members(
            flavour: .milagro, profile: .milagroOSS, appID: core.appID, baseURL: core.base.url,
            seedValue: core.random.hex(100), dta2URL: core.dta2Base.url.isEmpty ? nil : core.dta2Base.url
        ).map { ($0.0, Self.python($0.1)) }
        answer.writeJSON(.dict(members, literal: 18))
    }

    /// A client setting's value as Python holds it: a string, a boolean or an integer.
    static func python(_ value: JSONValue) -> PythonValue {
        switch value {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .number(let literal): Int64(literal).map(PythonValue.int) ?? .number(literal, isInteger: false)
        default: .none
        }
    }

    /// `RPSUserHandler.put`: registration, or its restart with `/<mpinId>`; the demo RPA's
    /// `/mpinVerify` decides the activation (a 500 of it is the RPS's empty 500).
    func register(_ request: Request, group: String, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        guard case .success(let data) = PythonJSON.loads(request.body) else {
            answer.setStatus(400, reason: "BAD REQUEST. INVALID JSON")
            return
        }
        let mobile: Int64
        switch try Self.uncaught(data.get("mobile", default: "0")).int() {
        case .success(let value): mobile = value
        case .failure(.valueError):
            answer.setStatus(400, reason: "BAD REQUEST. INVALID JSON")
            return
        case .failure: throw .internalError
        }
        let user = try Self.uncaught(data.get("userId"))
        let deviceName = try Self.uncaught(data.get("deviceName", default: ""))
        var oldRegOTT = try Self.uncaught(data.get("regOTT"))
        guard user.truthy else {
            answer.setStatus(400, reason: "BAD REQUEST. INVALID USERID")
            return
        }
        let now = self.now
        var mpinID = group.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var restarting = false
        var updateItem: Int?
        if !mpinID.isEmpty {
            if let (id, record) = await store.registration(mpinID, now: now) {
                guard record.regOTT == oldRegOTT else {
                    answer.setStatus(400, reason: "BAD REQUEST. INVALID REGOTT")
                    return
                }
                restarting = true
                updateItem = id
            } else {
                mpinID = ""
                oldRegOTT = .none
            }
        }
        if mpinID.isEmpty {
            let document = PythonValue.display([
                ("issued", .string(CivilTime.issued(milliseconds: now))), ("userID", user),
                ("mobile", .int(mobile)), ("salt", .string(core.random.hex(16))),
            ])
            mpinID = Hex.encode(Array(PythonJSON.dumps(document).utf8))
        }
        let userData = try Self.uncaught(data.get("userData"))
        let regOTT: PythonValue = oldRegOTT.truthy ? oldRegOTT : .string(core.random.hex(16))
        let activateKey = HMACSHA256.sign(key: core.signer.appKey, mpinID + Self.str(regOTT))
        let expires = now + 3_600_000
        let verifyRequest = PythonValue.display([
            ("userId", user), ("mpinId", .string(mpinID)), ("mobile", .int(mobile)),
            ("activateKey", .string(activateKey)),
            ("expireTime", .string(CivilTime.iso8601(milliseconds: expires))), ("resend", .bool(restarting)),
            ("deviceName", deviceName), ("userData", userData.truthy ? userData : ""),
        ])
        // The item restarted is deleted before the RPA is asked (the storage's bug starts here).
        if let updateItem { await store.deleteRegistration(updateItem, now: now) }
        let verdict: (Int, String?, [UInt8])
        do throws(Uncaught) {
            verdict = try await verifyUser(Array(PythonJSON.dumps(verifyRequest).utf8), baseURL: core.base.url)
        } catch {
            verdict = (error.status, nil, [])
        }
        guard verdict.0 >= 200 && verdict.0 < 300 else {
            answer.setStatus(verdict.0 >= 500 ? 500 : verdict.0)
            return
        }
        var forceActivate = false
        if !verdict.2.isEmpty {
            guard case .success(let response) = PythonJSON.loads(verdict.2),
                case .success(let force) = response.get("forceActivate")
            else {
                answer.setStatus(500)
                return
            }
            forceActivate = force.truthy
        }
        await store.putRegistration(
            OpenSourceStore.Registration(
                mpinID: mpinID, regOTT: regOTT, active: forceActivate ? activateKey : nil,
                expires: expires, userID: user.string ?? ""), now: self.now)
        answer.writeJSON(
            .display([
                ("mpinId", .string(mpinID)), ("regOTT", regOTT), ("expireTime", .string(Self.isoformat(expires))),
                ("nowTime", .string(Self.isoformat(now))), ("active", .bool(forceActivate)),
            ]))
    }

    /// `RPSSignatureHandler.get`: share 1 from D-TA 1 and the signed parameters for D-TA 2.
    func signature(_ request: Request, mpinID: String, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        guard let regOTT = request.argument("regOTT") else { throw .http(400) }  // MissingArgumentError
        let idBytes = try Self.uncaught(PythonValue.hexBytes(mpinID))
        guard let document = String(validating: idBytes, as: UTF8.self) else { throw .internalError }
        let mpinData = try Self.uncaught(PythonJSON.loads(Array(document.utf8)))
        let mobile = try Self.uncaught(mpinData.get("mobile", default: .int(0)))
        let now = self.now
        guard let (item, record) = await store.registration(mpinID, now: now) else {
            answer.setStatus(400, reason: "M-Pin ID not found.")
            return
        }
        guard record.regOTT == .string(regOTT) else {
            await store.deleteRegistration(item, now: now)
            answer.setStatus(400, reason: "M-Pin ID not found.")
            return
        }
        guard let active = record.active, active == HMACSHA256.sign(key: core.signer.appKey, mpinID + regOTT) else {
            answer.setStatus(401, reason: "M-PinID not active.")
            return
        }
        let user = try Self.uncaught(mpinData.subscripted("userID"))
        let hashHex = Hex.encode(core.mpin.hashID(idBytes))
        let expires = CivilTime.iso8601(milliseconds: now / 1000 * 1000 + 60_000)
        let signature = core.signer.clientSecret(
            appID: core.appID, hashMpinID: hashHex, hashUserID: "", expires: expires)
        let share = core.dta1.clientSecretShare(hashMpinID: core.mpin.hashID(idBytes))
        await store.deleteRegistration(item, now: now)
        // The workbench's operator tools (revoke) know the identity from here on.
        // At the record limit the operator tools do not learn it; the answer is the open-source server's all the same.
        await core.store.learnIdentity(mpinID: mpinID, userID: user.string ?? "")
        let params = Self.urlencode([
            ("app_id", core.appID), ("expires", expires), ("hash_mpin_id", hashHex), ("hash_user_id", ""),
            ("mobile", Self.str(mobile)), ("signature", signature),
        ])
        answer.writeJSON(.display([("params", .string(params)), ("clientSecretShare", .string(Hex.encode(share)))]))
    }

    /// `RPSTimePermitHandler.get`: share 1 of today's permit (kept for 7 to 13 days at a time) and
    /// the signature of the hashed ID for D-TA 2. The demo RPA's permit check allows everyone; the
    /// workbench's revocation answers 410.
    func timePermit(mpinID: String, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        if await core.store.isRevoked(mpinID: mpinID) { throw .http(410) }
        let idBytes = try Self.uncaught(PythonValue.hexBytes(mpinID))
        let hash = core.mpin.hashID(idBytes)
        let hashHex = Hex.encode(hash)
        let date = MPin.today(unixTime: now / 1000)
        let share: [UInt8]
        if let kept = await store.permit(hashHex, date: date, now: now) {
            share = kept
        } else {
            let count =
                BackendCore.timePermitDayCounts.lowerBound
                + Int(core.permitDays.uniform(UInt64(BackendCore.timePermitDayCounts.count)))
            let shares = (0..<UInt32(count)).map { core.dta1.timePermitShare(hashMpinID: hash, date: date &+ $0) }
            share = shares[0]
            if !shares.contains(where: \.isEmpty) {
                await store.keepPermits(hashHex, from: date, shares, now: now)
            }
        }
        answer.setHeader("Cache-Control", "no-cache")
        answer.writeJSON(
            .display([
                ("date", .int(Int64(date))), ("signature", .string(HMACSHA256.sign(key: core.signer.appKey, hashHex))),
                ("storageId", .string(hashHex)), ("message", "M-Pin Time Permit Generated"),
                ("timePermit", .string(Hex.encode(share))), ("version", Self.version),
            ]))
    }

    /// The RPS's 403 for what pass 1 and pass 2 catch: `Invalid data received. <message>`.
    /// A body that is not UTF-8 fails in `json_decode`'s `to_basestring`, a `UnicodeDecodeError`
    /// whose `message` is empty: `Invalid data received. ` and nothing more.
    static func invalidData(_ error: PythonError, _ answer: inout TornadoAnswer) {
        let reason: String
        if case .keyError(let key) = error {
            reason = "Invalid data received. \(key) argument missing"
        } else if error.message.hasPrefix("'utf8' codec can't decode") {
            reason = "Invalid data received. "
        } else {
            reason = "Invalid data received. \(error.message)"
        }
        answer.setStatus(403, reason: reason)
        answer.writeJSON(.display([("version", Self.version), ("message", .string(reason))]))
    }

    /// `Pass1Handler.post`: keeps U and UT as sent (not checked) with a fresh y for 15 seconds.
    func pass1(_ request: Request, _ answer: inout TornadoAnswer) async {
        let parsed = PythonJSON.loads(request.body).flatMap { data in
            data.subscripted("mpin_id").flatMap { $0.hexDecoded() }.flatMap { id in
                data.subscripted("UT").flatMap { ut in data.subscripted("U").map { (id, ut, $0) } }
            }
        }
        let (id, ut, u): ([UInt8], PythonValue, PythonValue)
        switch parsed {
        case .success(let values): (id, ut, u) = values
        case .failure(let error):
            guard case .attributeError = error else { return Self.invalidData(error, &answer) }
            return answer.sendError(500, date: Self.date(), writeError: rpsClass(request).writeError)
        }
        let y = core.random.scalar(core.mpin)
        let now = self.now
        await store.putPass1(
            Hex.encode(id), OpenSourceStore.Pass1(u: u, ut: ut, y: y, expires: now / 1000 * 1000 + 15_000), now: now)
        answer.setStatus(200, reason: "OK")
        answer.writeJSON(
            .display([("version", Self.version), ("y", .string(Hex.encode(y))), ("pass", .int(1)), ("message", "OK")]))
    }

    /// `Pass2Handler.post`: verifies V against the pass-1 record, which stays (a replayed pass 2
    /// is verified again); with a time permit SERVER_2 reads UT, not U. Always 200 with an
    /// authOTT: kept for the RPA (`WID` "0"), or put on the access number's session.
    func pass2(_ request: Request, _ answer: inout TornadoAnswer) async throws(Uncaught) {
        let parsed = PythonJSON.loads(request.body).flatMap { data in
            data.subscripted("mpin_id").flatMap { idHex in
                idHex.hexDecoded().flatMap { id in
                    data.subscripted("WID").flatMap { wid in
                        data.subscripted("OTP").flatMap { otp in
                            data.subscripted("V").flatMap { $0.hexDecoded() }.map { (idHex, id, wid, otp, $0) }
                        }
                    }
                }
            }
        }
        let (idHex, id, wid, otpWanted, v): (PythonValue, [UInt8], PythonValue, PythonValue, [UInt8])
        switch parsed {
        case .success(let values): (idHex, id, wid, otpWanted, v) = values
        case .failure(let error):
            guard case .attributeError = error else { return Self.invalidData(error, &answer) }
            throw .internalError
        }
        let now = self.now
        guard let record = await store.pass1(idHex.string ?? "", now: now) else {
            answer.setStatus(500, reason: "Invalid pass one data")
            answer.writeJSON(.display([("version", Self.version), ("message", "Invalid pass one data")]))
            return
        }
        _ = try Self.uncaught(record.u.hexDecoded())
        let ut = try Self.uncaught(record.ut.hexDecoded())
        let wantsOTP = try Self.uncaught(otpWanted.int()) == 1
        let otp = wantsOTP ? core.random.digits(6) : "0"
        let success = await withTaskExecutorPreference(globalConcurrentExecutor) {
            verify(id: id, y: record.y, ut: ut, v: v, now: now)
        }
        let token = OpenSourceStore.AuthToken(
            mpinID: id, success: success, expires: now / 1000 * 1000 + 60_000, otp: otp)
        let authOTT = core.random.hex(16)
        var members: [(String, PythonValue)] = [
            ("version", Self.version), ("pass", .int(2)), ("authOTT", .string(authOTT)),
        ]
        if wantsOTP { members.append(("OTP", .string(otp))) }
        if wid != .string("0") {
            await store.updateAuth(.wid(wid), now: now) {
                $0.authOTT = .string(authOTT)
                $0.token = token
            }
        } else {
            await store.addAuth(
                OpenSourceStore.AuthItem(
                    expires: token.expires, webOTT: .int(0), wid: "", authOTT: .string(authOTT), token: token),
                now: now)
        }
        answer.setStatus(200, reason: "OK")
        answer.writeJSON(.display(Array(members.prefix(3))).appending(members.dropFirst(3)))
    }

    /// SERVER_1 and SERVER_2 of the RPS's `validate_pass2_value`: today, and yesterday in the first
    /// hour of a day; with a date SERVER_2 uses UT (U is not read).
    func verify(id: [UInt8], y: [UInt8], ut: [UInt8], v: [UInt8], now: Int64) -> Bool {
        let today = MPin.today(unixTime: now / 1000)
        var dates = [today]
        if now % 86_400_000 < 3_600_000 && today > 0 { dates.append(today - 1) }
        for date in dates {
            let (hid, htid) = core.mpin.server1(date: date, id: id)
            if core.mpin.server2(
                date: date, hid: hid, htid: htid, y: y, serverSecret: core.serverSecret, u: ut, ut: ut, v: v) == .ok
            {
                return true
            }
        }
        return false
    }
}

extension PythonValue {
    /// The same dict with more members inserted after its display (`d[k] = v` later in the code).
    func appending(_ more: some Sequence<(String, PythonValue)>) -> PythonValue {
        guard case .dict(let members, let literal) = self else { return self }
        return .dict(members + Array(more), literal: literal)
    }
}
