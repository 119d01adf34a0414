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

    /// What answers a D-TA operation's GET: the server, the request, the authority and the answer to fill.
    typealias DTAHandler =
        @Sendable (OpenSourceServer, Request, TrustedAuthority, inout TornadoAnswer) throws(Uncaught) -> Void

    /// D-TA 2's routes, its operations under `Endpoint.dta2` (`/dta2/<operation>`), each answering
    /// GET and `OPTIONS`.
    static let dtaOperations: [String: DTAHandler] = [
        Endpoint.clientSecretOperation: { server, request, authority, answer throws(Uncaught) in
            try server.clientSecret(request, authority, &answer)
        },
        Endpoint.timePermitOperation: { server, request, authority, answer throws(Uncaught) in
            let hash = try server.permitHash(request)
            answer.writeJSON(
                .display([
                    (
                        "timePermit",
                        .string(
                            Hex.encode(
                                authority.timePermitShare(
                                    hashMpinID: hash, date: MPin.today(unixTime: server.now / 1000))))
                    ),
                    ("message", "OK"),
                ]))
        },
    ]

    /// D-TA 2's answer to a path under `Endpoint.dta2`: its operation's, or its 404 for every other
    /// path (the time-permit storage, `Endpoint.openSourceTimePermitsStorage`, included).
    func dta(_ request: Request) async -> TornadoAnswer {
        let authority = core.dta2
        if request.path.hasPrefix(Endpoint.dta2.path),
            let operation = Self.dtaOperations[String(request.path.dropFirst(Endpoint.dta2.path.count))]
        {
            return await execute(request, Self.dtaClass) { answer throws(Uncaught) in
                switch request.method {
                case "GET": try operation(self, request, authority, &answer)
                case "OPTIONS":
                    answer.setStatus(200, reason: "OK")
                    answer.writeJSON(.display([("service_name", "D-TA server"), ("message", "options request")]))
                default: return false
                }
                return true
            }
        }
        return await execute(request, Self.dtaClass) { answer throws(Uncaught) in
            switch request.method {
            case "GET":
                answer.setStatus(404, reason: "NOT FOUND")
                answer.writeJSON(.display([("service_name", "D-TA server"), ("message", "NOT FOUND")]))
            case "POST", "PUT", "DELETE":
                answer.setStatus(404, reason: "URI NOT FOUND")
                answer.writeJSON(.display([("service_name", "D-TA server"), ("message", "URI NOT FOUND")]))
            case "OPTIONS": throw .internalError  // options() takes no path argument: a TypeError
            default: return false
            }
            return true
        }
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
        let (code, reason) = checkSignature(values[2], expected: expected, expires: values[1])
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

    /// `verifySignature` of lib/mpin_utils/common.py: the HMAC first, then the expiry.
    func checkSignature(_ signature: String, expected: String, expires: String) -> (Int, String) {
        guard let expiry = Self.isoToMilliseconds(expires) else {
            return (500, "Error verifying message. time data '\(expires)' does not match format '%Y-%m-%dT%H:%M:%S'")
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

    /// `TimePermitHandler`'s checks (each an `HTTPError`, so the capitalised reason): the hash
    /// (present, 64 digits, hex), the signature (present, the HMAC of the hash).
    func permitHash(_ request: Request) throws(Uncaught) -> [UInt8] {
        guard let hashHex = request.argument("hash_mpin_id"), hashHex.count == 64,
            case .success(let hash) = PythonValue.hexBytes(hashHex), let signature = request.argument("signature")
        else { throw .http(403) }
        guard HMACSHA256.equal(signature, HMACSHA256.sign(key: core.signer.appKey, hashHex)) else { throw .http(401) }
        return hash
    }
}
