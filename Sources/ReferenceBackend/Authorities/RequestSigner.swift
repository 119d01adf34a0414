/// The HMAC signatures that let a D-TA trust a request the RPS prepared (docs/protocol.md §8:
/// `signMessage(m, app_key) = HMAC-SHA256(app_key, m)` as hex).
struct RequestSigner: Sendable {
    let appKey: [UInt8]

    /// Client-secret requests: over `"clientSecret" + app_id + hash_mpin_id + hash_user_id + expires`.
    func clientSecret(appID: String, hashMpinID: String, hashUserID: String, expires: String) -> String {
        HMACSHA256.sign(key: appKey, "clientSecret" + appID + hashMpinID + hashUserID + expires)
    }

    /// Server-secret requests: over `"serverSecret" + app_id + expires`.
    func serverSecret(appID: String, expires: String) -> String {
        HMACSHA256.sign(key: appKey, "serverSecret" + appID + expires)
    }

    /// Time-permit requests: over `"timePermit" + hash_mpin_id + day`. The open-source server signs
    /// the hash alone, which never expires; binding the day makes the signature expire with it.
    func timePermit(hashMpinID: String, date: UInt32) -> String {
        HMACSHA256.sign(key: appKey, "timePermit" + hashMpinID + String(date))
    }

    /// Activation keys: over the M-Pin ID and regOTT (the RPS's `activateKey`).
    func activateKey(mpinID: String, regOTT: String) -> String {
        HMACSHA256.sign(key: appKey, mpinID + regOTT)
    }
}
