import Foundation
import MPinSDK

/// Canned backend answers, shaped like the recorded traffic of docs/protocol.md §2–§3. The points are
/// valid BN254CX points made as docs/protocol.md §6.7(b) makes them, for an M-Pin ID of our own.
enum Canned {
    static let backend = "http://backend.test:8005"
    static let backendKey = "backend.test:8005"
    static let userID = "testUser"
    /// hex of {"mobile": 1, "issued": "2016-10-11 12:00:00.000000", "userID": "testUser", "salt": "5ea1c0ffee0ddba11ab1e5eedcafe000"},
    /// an M-Pin ID of our own shaped as the RPS makes them; the shares, token and permits below are the
    /// M-Pin maths of docs/protocol.md §6.7(b) (master secrets s1, s2 there, PIN 1234 -> 9442, date 17085) for it
    static let mpinID =
        "7b226d6f62696c65223a20312c2022697373756564223a2022323031362d31302d31312031323a30303a30302e303030303030222c2022757365724944223a20227465737455736572222c202273616c74223a20223565613163306666656530646462613131616231653565656463616665303030227d"
    static let hashMPinID = "0f07b7a26bc1c77adf40355a5b86e01284bd2f33ab49638162878fcff467d563"
    static let regOTT = "00112233445566778899aabbccddeeff"
    static let cs1 =
        "0423698d62ffed517c25de26fc0f40a24c6964ff27d772857a60c1784ba27932941d57e51daa34dfefadfbe63ab7192ef4395bcbeba815f6d8c749c882b6578878"
    static let cs2 =
        "040c3a4ea242b70cc7ad8df5d167bdc4b9b506b9112c9034d36f0d02fbe6174958166b0b98cea4d907fe2620fe0abc5d55c84a80c3d2e36d42682940c85320da2b"
    static let token1234Legacy =
        "041f2a3c1c975b3f138ef94bcafe13432fa9f3986ae1ced8ee198605c9a3a5aa180f0063cde3cb2e55d3a72ed575ec6782a139f643a506eece29fad85c4ae8c9f6"
    static let tp1 =
        "0417595026685afdc64486a946fc0d2191385e29b381df078ea78b15b2d01072242184a353e3450236bfe50a669ca7761d1fcc1fa0ea89fc0d623c801cab1cadd9"
    static let tp2 =
        "041ea4c2d89a1e5508df9838b1ea968f2537ed43be604d3bd79396bf8fc8b72bb91db4768308104054a7cfbfd79a9ad4b70ded1c4a5cae30b2399f7fd70ece524d"
    static let tp =
        "041b9b8a2730bef9366d056639b60ed3b0b4b97027170c4eac673a14853b1bd8da0502bc3e47acfe9afa7966fde783954ee6e6d9bd45c08ed12b0b922ecd1a0ca2"
    static let date = 17085
    static let appID = "0123456789abcdef0123456789abcdef"
    static let y = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"
    static let authOTT = "fedcba98765432100123456789abcdef"
    static let params =
        "mobile=1&expires=2016-10-11T13%3A59%3A16Z&app_id=\(appID)&hash_mpin_id=\(hashMPinID)&signature=abcd&hash_user_id="

    static func settings(
        usePermits: Bool? = nil, cSum: Int? = 1, digits: Int = 7, codeStatus: Bool = false,
        storageURL: String = "http://s3.test/bucket"
    ) -> String {
        var fields = [
            "\"mpinAuthServerURL\": \"/rps\"", "\"timePermitsURL\": \"/rps/timePermit\"",
            "\"accessNumberDigits\": \(digits)",
            "\"authenticateURL\": \"/mpinAuthenticate\"", "\"certivoxURL\": \"https://dta.test/v3/\"",
            "\"accessNumberUseCheckSum\": true", "\"registerURL\": \"/rps/user\"", "\"appID\": \"\(appID)\"",
            "\"signatureURL\": \"/rps/signature\"", "\"mobileAuthenticateURL\": \"/rps/authenticate\"",
            "\"setDeviceName\": false", "\"timePermitsStorageURL\": \"\(storageURL)\"",
            "\"socket\": \"wss://backend.test/ws\"",
        ]
        if let cSum { fields.append("\"cSum\": \(cSum)") }
        if let usePermits { fields.append("\"usePermits\": \(usePermits)") }
        if codeStatus { fields.append("\"codeStatusURL\": \"/rps/codeStatus\"") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func clientSettings(_ body: String = settings()) -> ScriptedTransport.Step {
        .get("\(backend)/rps/clientSettings", 200, body)
    }

    static func register(active: Bool = false, status: Int = 200, extra: String = "") -> ScriptedTransport.Step {
        .put(
            "\(backend)/rps/user", status,
            status == 200
                ? "{\"active\": \(active), \"mpinId\": \"\(mpinID)\", \"regOTT\": \"\(regOTT)\", \"expireTime\": \"\", \"nowTime\": \"\"\(extra)}"
                : "{\"message\": \"refused\"}")
    }

    static func signature(status: Int = 200) -> ScriptedTransport.Step {
        .get(
            "\(backend)/rps/signature/\(mpinID)?regOTT=\(regOTT)", status,
            status == 200 ? "{\"clientSecretShare\": \"\(cs1)\", \"params\": \"\(params)\"}" : "")
    }

    static func clientSecret(status: Int = 200) -> ScriptedTransport.Step {
        .get(
            "https://dta.test/v3/clientSecret?\(params)", status,
            status == 200 ? "{\"clientSecret\": \"\(cs2)\", \"message\": \"OK\", \"version\": \"3\"}" : "")
    }

    static func timePermit(status: Int = 200) -> ScriptedTransport.Step {
        .get(
            "\(backend)/rps/timePermit/\(mpinID)", status,
            status == 200
                ? "{\"date\": \(date), \"signature\": \"5151\", \"storageId\": \"\(hashMPinID)\", \"timePermit\": \"\(tp1)\", \"message\": \"M-Pin Time Permit Generated\", \"version\": \"0.3\"}"
                : "")
    }

    static func timePermitStorage(status: Int = 404, body: String = "") -> ScriptedTransport.Step {
        .get("http://s3.test/bucket/\(appID)/\(date)/\(hashMPinID)", status, body)
    }

    static func timePermitDTA(status: Int = 200) -> ScriptedTransport.Step {
        .get(
            "https://dta.test/v3/timePermit?hash_mpin_id=\(hashMPinID)&app_id=\(appID)&mobile=1&signature=5151", status,
            status == 200 ? "{\"timePermit\": \"\(tp2)\", \"message\": \"OK\", \"version\": \"3\"}" : "")
    }

    static func pass1() -> ScriptedTransport.Step {
        .post("\(backend)/rps/pass1", 200, "{\"y\": \"\(y)\", \"message\": \"OK\", \"version\": \"0.3\", \"pass\": 1}")
    }

    static func pass2(otp: String? = nil) -> ScriptedTransport.Step {
        .post(
            "\(backend)/rps/pass2", 200,
            "{\"version\": \"0.3\", \"authOTT\": \"\(authOTT)\", \"pass\": 2"
                + (otp.map { ", \"OTP\": \"\($0)\"" } ?? "") + "}")
    }

    static func rpa(
        status: Int = 200, body: String = "{\"someUserData\": \"This will be handled by onSuccessLogin handler.\"}"
    )
        -> ScriptedTransport.Step
    {
        .post("\(backend)/mpinAuthenticate", status, body)
    }

    static func mobileAuthenticate(
        status: Int = 200,
        body: String =
            "{\"logoutData\": {\"userId\": \"testUser\", \"sessionToken\": \"c605\"}, \"logoutURL\": \"/logout\"}"
    )
        -> ScriptedTransport.Step
    {
        .post("\(backend)/rps/authenticate", status, body)
    }

    static var registration: [ScriptedTransport.Step] { [register(active: true), signature(), clientSecret()] }
    static var timePermits: [ScriptedTransport.Step] { [timePermit(), timePermitStorage(), timePermitDTA()] }
}
