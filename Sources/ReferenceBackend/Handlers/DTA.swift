import CommonFormats
import MPinCrypto
import OrderedJSON

/// The D-TAs' HTTP endpoints, `/dta1/...` and `/dta2/...` (docs/protocol.md §8.1). `certivoxURL` points
/// the client at `/dta2/`; the RPS asks `dta1` in-process through the same checks.
extension BackendCore {
    /// A client-secret or time-permit share answers `version` "3" (the CertiVox D-TA's); the
    /// `milagro-oss` profile's D-TAs, like the open-source ones, send none (docs/protocol.md §13).
    func authorityRequest(_ authority: TrustedAuthority, _ operation: String, _ query: [String: String])
        throws(APIError) -> Reply
    {
        let now = self.now
        let version: [(String, JSONValue)] = openSource ? [] : [("version", "3")]
        switch operation {
        case "clientSecret":
            let share = try clientSecretShare(authority, query, now: now)
            return .ok([("clientSecret", .string(Hex.encode(share))), ("message", "OK")] + version)
        case "timePermit":
            let (hash, date) = try permitRequest(authority, query, now: now)
            return .ok(
                [
                    ("timePermit", .string(Hex.encode(authority.timePermitShare(hashMpinID: hash, date: date)))),
                    ("message", "OK"),
                ] + version)
        case "timePermits":
            let (hash, date) = try permitRequest(authority, query, now: now)
            guard let count = Int(query["count"] ?? "1"), (1...31).contains(count) else {
                throw APIError(.badRequest, "count must be 1 to 31")
            }
            let permits: [(String, JSONValue)] = (0..<UInt32(count)).map { offset in
                (
                    String(date + offset),
                    .string(Hex.encode(authority.timePermitShare(hashMpinID: hash, date: date + offset)))
                )
            }
            return .ok([("timePermits", .fields(permits)), ("message", "OK")])
        case "serverSecret":
            let appID = try TrustedAuthority.required(query, "app_id")
            let expires = try TrustedAuthority.required(query, "expires")
            let signature = try TrustedAuthority.required(query, "signature")
            try authority.checkExpiring(
                signature: signature, expected: signer.serverSecret(appID: appID, expires: expires),
                expires: expires, now: now)
            return .ok([
                ("serverSecret", .string(Hex.encode(authority.serverSecretShare))),
                ("startTime", .string(CivilTime.iso8601(milliseconds: now))), ("message", "OK"),
            ])
        default:
            throw APIError(.notFound, "No such D-TA operation: \(operation)")
        }
    }

    /// Checks a signed client-secret request and returns s·mapit(hash_mpin_id).
    func clientSecretShare(_ authority: TrustedAuthority, _ query: [String: String], now: Int64) throws(APIError)
        -> [UInt8]
    {
        let appID = try TrustedAuthority.required(query, "app_id")
        let expires = try TrustedAuthority.required(query, "expires")
        let hashUserID = try TrustedAuthority.required(query, "hash_user_id")
        let signature = try TrustedAuthority.required(query, "signature")
        let hash = try TrustedAuthority.hashMpinID(query)
        let expected = signer.clientSecret(
            appID: appID, hashMpinID: Hex.encode(hash), hashUserID: hashUserID, expires: expires)
        try authority.checkExpiring(signature: signature, expected: expected, expires: expires, now: now)
        guard appID == self.appID else { throw APIError(.unauthorized, "Unknown app_id") }
        return authority.clientSecretShare(hashMpinID: hash)
    }

    private func permitRequest(_ authority: TrustedAuthority, _ query: [String: String], now: Int64) throws(APIError)
        -> ([UInt8], UInt32)
    {
        let hash = try TrustedAuthority.hashMpinID(query)
        let signature = try TrustedAuthority.required(query, "signature")
        let date = try authority.checkTimePermit(signature: signature, hashMpinID: Hex.encode(hash), now: now)
        return (hash, date)
    }
}

/// The time-permit storage the client settings name (`timePermitsStorageURL`, docs/protocol.md §2, §8.4):
/// an S3-style cache of share 2 at `<storage>/<appID>/<date>/<storageId>`. It holds nothing, so
/// every GET under it answers 404 and the SDK asks D-TA 2.
extension BackendCore {
    func timePermitStorage(_ call: Call) throws(APIError) -> Reply {
        let path = "/" + call.segments.joined(separator: "/")
        throw APIError(.notFound, "No time permit in storage at \(path): ask the D-TA")
    }
}
