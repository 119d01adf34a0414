import CommonFormats
import MPinCrypto

/// One D-TA: a master-secret share s and the secrets it derives from it (docs/protocol.md §8.1).
///
/// It trusts a request only when its HMAC signature is right (401 otherwise) and unexpired (408).
struct TrustedAuthority: Sendable {
    /// The path segment it is served under (`dta1`, `dta2`).
    let name: String
    let masterSecret: [UInt8]
    /// s·Q in G2, 128 bytes.
    let serverSecretShare: [UInt8]
    let appID: String
    let signer: RequestSigner
    let mpin: MPin

    init(name: String, masterSecret: [UInt8], appID: String, signer: RequestSigner, mpin: MPin) {
        self.name = name
        self.masterSecret = masterSecret
        self.appID = appID
        self.signer = signer
        self.mpin = mpin
        serverSecretShare = mpin.serverSecret(masterSecret: masterSecret) ?? []
    }

    /// s·mapit(hash_mpin_id).
    func clientSecretShare(hashMpinID: [UInt8]) -> [UInt8] {
        mpin.clientSecret(masterSecret: masterSecret, hashedID: hashMpinID) ?? []
    }

    /// s·mapit(SHA256(be32(date) ‖ hash_mpin_id)).
    func timePermitShare(hashMpinID: [UInt8], date: UInt32) -> [UInt8] {
        mpin.clientPermit(date: date, masterSecret: masterSecret, hashedID: hashMpinID) ?? []
    }

    // MARK: - Checking signed requests

    /// A 64-hex-digit `hash_mpin_id`.
    static func hashMpinID(_ query: [String: String]) throws(APIError) -> [UInt8] {
        let text = try required(query, "hash_mpin_id")
        guard text.utf8.count == 64, let bytes = Hex.decode(text) else {
            throw APIError(.badRequest, "hash_mpin_id must be 64 hex digits")
        }
        return bytes
    }

    static func required(_ query: [String: String], _ name: String) throws(APIError) -> String {
        guard let value = query[name] else { throw APIError(.badRequest, "Missing parameter '\(name)'") }
        return value
    }

    /// Checks a signature made over parameters that carry an `expires` time.
    func checkExpiring(signature: String, expected: String, expires: String, now: Int64) throws(APIError) {
        guard let deadline = CivilTime.parseISO8601(expires) else {
            throw APIError(.badRequest, "expires must be YYYY-MM-DDTHH:MM:SSZ")
        }
        guard HMACSHA256.equal(signature.lowercased(), expected) else {
            throw APIError(.unauthorized, "Invalid signature")
        }
        guard now <= deadline else { throw APIError(.requestTimeout, "The request has expired") }
    }

    /// The day a time-permit signature is good for: today, or yesterday during the first hour of
    /// a day; 408 when it was made for an earlier day of the last week, 401 otherwise.
    func checkTimePermit(signature: String, hashMpinID: String, now: Int64) throws(APIError) -> UInt32 {
        let today = MPin.today(unixTime: now / 1000)
        let earlyHour = now % 86_400_000 < 3_600_000
        let given = signature.lowercased()
        if HMACSHA256.equal(given, signer.timePermit(hashMpinID: hashMpinID, date: today)) { return today }
        for back in UInt32(1)...7 where back <= today {
            if HMACSHA256.equal(given, signer.timePermit(hashMpinID: hashMpinID, date: today - back)) {
                if back == 1 && earlyHour { return today - 1 }
                throw APIError(.requestTimeout, "The time-permit signature has expired")
            }
        }
        throw APIError(.unauthorized, "Invalid signature")
    }
}
