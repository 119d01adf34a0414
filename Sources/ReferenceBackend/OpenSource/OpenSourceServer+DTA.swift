import CommonFormats
import Foundation
import MPinCrypto
import MilagroProtocol

/// D-TA 2 (servers/dta/dta.py) of the `milagro-oss` profile, under `/dta2/`: `write_error` says
/// the reason in capitals (`{"service_name": "D-TA server", "message": "FORBIDDEN"}`).
extension OpenSourceServer {
    static let dtaClass = HandlerClass(
        defaultHeaders: [
            ("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Credentials", "true"),
            ("Access-Control-Allow-Methods", "GET, OPTIONS"),
            (
                "Access-Control-Allow-Headers",
                "Content-Type, Depth, User-Agent, X-File-Size, X-Requested-With, X-Requested-By, If-Modified-Since, "
                    + "X-File-Name, Cache-Control"
            ),
        ],
        writeError: { answer in
            answer.setStatus(answer.status, reason: answer.reason.uppercased())
            answer.writeJSON(.display([("service_name", "D-TA server"), ("message", .string(answer.reason))]))
        })

    /// D-TA 2's answer to a path of its own (the part after `TornadoRouteTable.dta2Mount`, which
    /// keeps its `/`): the route of the D-TA's table that matches (`TornadoRouteTable.dta`), its
    /// 405 for a method its handler does not define, `OPTIONS` answered by the base class (a
    /// `TypeError`, 500, on the catch-all route, whose group it does not take).
    func dta(_ request: Request, path: String) async -> TornadoAnswer {
        let authority = core.dta2
        let found = TornadoRouteTable.route(.dta, path: path)
        var handlerClass = Self.dtaClass
        if let route = found?.route { handlerClass.supportedMethods = Array(route.supportedMethods) }
        return await execute(request, handlerClass) { answer throws(Uncaught) in
            guard let (route, group) = found else { throw .http(404) }
            if route.group == .anything { _ = try Self.decodedGroup(group) }
            guard route.defines(request.method) else { throw .http(405) }
            if request.method == "OPTIONS" {
                if route.group != .none { throw .internalError }
                answer.setStatus(200, reason: "OK")
                answer.writeJSON(.display([("service_name", "D-TA server"), ("message", "options request")]))
                return true
            }
            switch route.handler {
            case .dtaClientSecret: try self.clientSecret(request, authority, &answer)
            case .dtaServerSecret: try self.serverSecret(request, authority, &answer)
            case .dtaTimePermit:
                let hash = try self.permitHash(request, count: false).hash
                answer.writeJSON(
                    .display([
                        (
                            "timePermit",
                            .string(Hex.encode(authority.timePermitShare(hashMpinID: hash, date: self.today)))
                        ),
                        ("message", "OK"),
                    ]))
            case .dtaTimePermits:
                let (hash, count) = try self.permitHash(request, count: true)
                let dates = (0..<max(0, min(count, Self.permitCountLimit))).map { self.today &+ UInt32($0) }
                let permits = dates.map { date in
                    (
                        String(date),
                        PythonValue.string(Hex.encode(authority.timePermitShare(hashMpinID: hash, date: date)))
                    )
                }
                answer.writeJSON(.display([("timePermits", .intKeyed(permits)), ("message", "OK")]))
            case .dtaStatus:
                // `start_time_str = Time.DateTimeToISO(...),`: the trailing comma makes it a tuple.
                answer.setStatus(200, reason: "OK")
                answer.writeJSON(
                    .display([
                        (
                            "startTime",
                            .list([.string(CivilTime.iso8601(milliseconds: self.core.startedAt / 1000 * 1000))])
                        ),
                        ("service_name", "D-TA server"), ("message", "OK"),
                    ]))
            default:
                switch request.method {
                case "GET":
                    answer.setStatus(404, reason: "NOT FOUND")
                    answer.writeJSON(.display([("service_name", "D-TA server"), ("message", "NOT FOUND")]))
                default:
                    answer.setStatus(404, reason: "URI NOT FOUND")
                    answer.writeJSON(.display([("service_name", "D-TA server"), ("message", "URI NOT FOUND")]))
                }
            }
            return true
        }
    }

    /// The most time permits one `timePermits` request gets (the Python D-TA computes as many as
    /// `count` asks, which a large count turns into minutes of work): a bound of the profile's own.
    static let permitCountLimit = 400

    var today: UInt32 { MPin.today(unixTime: now / 1000) }

    /// A path argument as the handler receives it (`decode_argument`): percent-decoded, then UTF-8;
    /// 400 when the bytes are not UTF-8.
    static func decodedGroup(_ group: String) throws(Uncaught) -> String {
        guard let text = String(validating: unquote(group), as: UTF8.self) else { throw .http(400) }
        return text
    }

    /// `urllib.unquote`: each `%XX` of two hex digits a byte, everything else as it is.
    static func unquote(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                let value = Hex.decode(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self))
            {
                out += value
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// A 403 of the D-TA's own: `{"message": <reason>}`.
    private static func refuse(_ reason: String, _ answer: inout TornadoAnswer) {
        answer.setStatus(403, reason: reason)
        answer.writeJSON(.display([("message", .string(reason))]))
    }

    /// `ClientSecretHandler.get`: the arguments in order (403 `Missing argument x`, 403 for a hash
    /// that is not hex or not 64 digits), the signature over `clientSecret`, app id, hash, hashed
    /// user id and expiry (401 `Invalid signature`, 408 `Request expired`, 500 when the expiry
    /// cannot be read), then the share.
    func clientSecret(_ request: Request, _ authority: TrustedAuthority, _ answer: inout TornadoAnswer) throws(Uncaught)
    {
        var values: [String] = []
        for name in ["app_id", "expires", "signature", "hash_mpin_id"] {
            guard let value = request.argument(name) else { return Self.refuse("Missing argument \(name)", &answer) }
            values.append(value)
        }
        guard case .success(let hash) = PythonValue.hexBytes(values[3]) else {
            return Self.refuse("Invalid data received. Hex object could be decoded", &answer)
        }
        guard let hashUserID = request.argument("hash_user_id") else {
            return Self.refuse("Missing argument hash_user_id", &answer)
        }
        guard values[3].count == 64 else {
            return Self.refuse("Invalid data received. hash_mpin_id should be 64 bytes", &answer)
        }
        let expected = core.signer.clientSecret(
            appID: core.appID, hashMpinID: values[3], hashUserID: hashUserID, expires: values[1])
        let (code, reason) = try checkSignature(values[2], expected: expected, expires: values[1])
        guard code == 200 else {
            answer.setStatus(code, reason: reason)
            answer.writeJSON(.display([("code", .int(Int64(code))), ("message", .string(reason))]))
            return
        }
        answer.setStatus(200, reason: "OK")
        answer.writeJSON(
            .display([
                ("clientSecret", .string(Hex.encode(authority.clientSecretShare(hashMpinID: hash)))), ("message", "OK"),
            ]))
    }

    /// `verifySignature` of the open-source server's common module: the expiry read first (an
    /// empty one is now), then the HMAC (401 `Invalid signature`), then the expiry (408 `Request
    /// expired`). An expiry it cannot read is an uncaught error (its error path reads a variable
    /// that was never set): 500.
    func checkSignature(_ signature: String, expected: String, expires: String) throws(Uncaught) -> (Int, String) {
        var expiry = now
        if !expires.isEmpty {
            guard let parsed = Self.isoToMilliseconds(expires) else { throw .internalError }
            expiry = parsed
        }
        guard HMACSHA256.equal(signature, expected) else { return (401, "Invalid signature") }
        guard now <= expiry else { return (408, "Request expired") }
        return (200, "Valid signature")
    }

    /// `Time.ISOtoDateTime`: `YYYY-MM-DDTHH:MM:SS`, anything after a `.` or `Z` ignored.
    static func isoToMilliseconds(_ text: String) -> Int64? {
        let head =
            text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let core =
            head.replacingOccurrences(of: " ", with: "T").split(
                separator: "Z", maxSplits: 1, omittingEmptySubsequences: false
            ).first ?? ""
        return CivilTime.parseISO8601(String(core) + "Z")
    }

    /// `TimePermitsHandler`'s checks (each an `HTTPError`, so the capitalised reason): the hash
    /// (present and 64 characters, 403; then hex, 403, or 500 when not ASCII), the signature
    /// (present, 403), the count for `timePermits` (present and an integer, 403), then the
    /// signature, the HMAC of the hash (401).
    func permitHash(_ request: Request, count wantsCount: Bool) throws(Uncaught) -> (hash: [UInt8], count: Int) {
        guard let hashHex = request.argument("hash_mpin_id"), hashHex.count == 64 else { throw .http(403) }
        let hash: [UInt8]
        switch PythonValue.string(hashHex).hexDecoded() {
        case .success(let bytes): hash = bytes
        case .failure(.typeError): throw .http(403)
        case .failure: throw .internalError
        }
        guard let signature = request.argument("signature") else { throw .http(403) }
        var count = 1
        if wantsCount {
            guard let text = request.argument("count") else { throw .http(403) }
            guard case .success(let value) = PythonValue.string(text).int() else { throw .http(403) }
            count = Int(clamping: value)
        }
        guard HMACSHA256.equal(signature, HMACSHA256.sign(key: core.signer.appKey, hashHex)) else { throw .http(401) }
        return (hash, count)
    }

    /// `ServerSecretHandler.get`: the arguments (403 `Missing argument x`), the signature over
    /// `serverSecret`, the app id and the expiry (401, 408, 500 as `verifySignature` decides),
    /// then this D-TA's share of the server secret and its start time.
    func serverSecret(_ request: Request, _ authority: TrustedAuthority, _ answer: inout TornadoAnswer) throws(Uncaught)
    {
        var values: [String] = []
        for name in ["app_id", "expires", "signature"] {
            guard let value = request.argument(name) else { return Self.refuse("Missing argument \(name)", &answer) }
            values.append(value)
        }
        let expected = HMACSHA256.sign(key: core.signer.appKey, "serverSecret" + core.appID + values[1])
        let (code, reason) = try checkSignature(values[2], expected: expected, expires: values[1])
        guard code == 200 else {
            answer.setStatus(code, reason: reason)
            answer.writeJSON(.display([("code", .int(Int64(code))), ("message", .string(reason))]))
            return
        }
        answer.setStatus(200, reason: "OK")
        answer.writeJSON(
            .display([
                ("serverSecret", .string(Hex.encode(authority.serverSecretShare))),
                ("startTime", .string(CivilTime.iso8601(milliseconds: core.startedAt / 1000 * 1000))),
                ("message", "OK"),
            ]))
    }
}
