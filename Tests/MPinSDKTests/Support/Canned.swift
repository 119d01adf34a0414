import Foundation
import MPinSDK

/// Canned backend answers, shaped like the recorded traffic of PROTOCOL §2–§3. The points are
/// the valid BN254CX points of PROTOCOL §6.7(b).
enum Canned {
    static let backend = "http://backend.test:8005"
    static let backendKey = "backend.test:8005"
    static let userID = "testUser"
    /// hex of {"mobile": 1, "issued": "2016-10-11 13:58:17.696560", "userID": "testUser", "salt": "618859be3fd5f3a909c12c98ea1a4082"}
    static let mpinID = "7b226d6f62696c65223a20312c2022697373756564223a2022323031362d31302d31312031333a35383a31372e363936353630222c2022757365724944223a20227465737455736572222c202273616c74223a20223631383835396265336664356633613930396331326339386561316134303832227d"
    static let hashMPinID = "6881c66d62bec4b47556c0909391e4510e1787eaea61188405646d52fcef6671"
    static let regOTT = "00112233445566778899aabbccddeeff"
    static let cs1 = "0418806b01352da25cb44c2921c359eb5be7609dabb32c8e1484eb95133fea098a04b3b6583307a6edb221c280063728ddc798f88d6e930600c88cf54fddb425b6"
    static let cs2 = "040730404583b06354408a8d9b3c21a6209a6971385b171c0986ebf7b3334f322905bc55a04b86544e2308adcb7d33536112e68729a7ac76250255c90c939d2592"
    static let token1234Legacy = "041fe1b438558b788367b841709902ad6b8c685c88aadf1c8e0cb4de04087867b411451395ec9b8fd9e5cf740d0ffeb77172e4660c92c4c07a53b45c959a0d78a6"
    static let tp1 = "04084e896631d13dff5a0de52b8c064577a3d616f722453c90519d0fee4e8b1a7d1f5e8c9c1694ad181ce8f33c69b24b4d2e786492b48bc837f3f798dd41b53e60"
    static let tp2 = "0403452c338b0c7c0aa6a33b79dce47561113df638a4567174b45eea263696bfc0102b297168688b6193561f8f52424de5af64adedc44c0d7611dc0236c4ae2c32"
    static let tp = "041473a08d010d88aad9c1a2d577c6978bf917783813e28b512aaa7d0326e7dc6b1590b9439d1c35e7338585be1201cc1a08b7e05ad81ee39622fb046ae2bfa3f0"
    static let date = 17085
    static let appID = "0123456789abcdef0123456789abcdef"
    static let y = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"
    static let authOTT = "fedcba98765432100123456789abcdef"
    static let params = "mobile=1&expires=2016-10-11T13%3A59%3A16Z&app_id=\(appID)&hash_mpin_id=\(hashMPinID)&signature=abcd&hash_user_id="

    static func settings(usePermits: Bool? = nil, cSum: Int? = 1, digits: Int = 7, codeStatus: Bool = false,
                         storageURL: String = "http://s3.test/bucket") -> String {
        var fields = [
            "\"mpinAuthServerURL\": \"/rps\"", "\"timePermitsURL\": \"/rps/timePermit\"", "\"accessNumberDigits\": \(digits)",
            "\"authenticateURL\": \"/mpinAuthenticate\"", "\"certivoxURL\": \"https://dta.test/v3/\"",
            "\"accessNumberUseCheckSum\": true", "\"registerURL\": \"/rps/user\"", "\"appID\": \"\(appID)\"",
            "\"signatureURL\": \"/rps/signature\"", "\"mobileAuthenticateURL\": \"/rps/authenticate\"",
            "\"setDeviceName\": false", "\"timePermitsStorageURL\": \"\(storageURL)\"", "\"socket\": \"wss://backend.test/ws\"",
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
        .put("\(backend)/rps/user", status,
             status == 200 ? "{\"active\": \(active), \"mpinId\": \"\(mpinID)\", \"regOTT\": \"\(regOTT)\", \"expireTime\": \"\", \"nowTime\": \"\"\(extra)}"
                           : "{\"message\": \"refused\"}")
    }

    static func signature(status: Int = 200) -> ScriptedTransport.Step {
        .get("\(backend)/rps/signature/\(mpinID)?regOTT=\(regOTT)", status,
             status == 200 ? "{\"clientSecretShare\": \"\(cs1)\", \"params\": \"\(params)\"}" : "")
    }

    static func clientSecret(status: Int = 200) -> ScriptedTransport.Step {
        .get("https://dta.test/v3/clientSecret?\(params)", status,
             status == 200 ? "{\"clientSecret\": \"\(cs2)\", \"message\": \"OK\", \"version\": \"3\"}" : "")
    }

    static func timePermit(status: Int = 200) -> ScriptedTransport.Step {
        .get("\(backend)/rps/timePermit/\(mpinID)", status,
             status == 200 ? "{\"date\": \(date), \"signature\": \"5151\", \"storageId\": \"\(hashMPinID)\", \"timePermit\": \"\(tp1)\", \"message\": \"M-Pin Time Permit Generated\", \"version\": \"0.3\"}" : "")
    }

    static func timePermitStorage(status: Int = 404, body: String = "") -> ScriptedTransport.Step {
        .get("http://s3.test/bucket/\(appID)/\(date)/\(hashMPinID)", status, body)
    }

    static func timePermitDTA(status: Int = 200) -> ScriptedTransport.Step {
        .get("https://dta.test/v3/timePermit?hash_mpin_id=\(hashMPinID)&app_id=\(appID)&mobile=1&signature=5151", status,
             status == 200 ? "{\"timePermit\": \"\(tp2)\", \"message\": \"OK\", \"version\": \"3\"}" : "")
    }

    static func pass1() -> ScriptedTransport.Step {
        .post("\(backend)/rps/pass1", 200, "{\"y\": \"\(y)\", \"message\": \"OK\", \"version\": \"0.3\", \"pass\": 1}")
    }

    static func pass2(otp: String? = nil) -> ScriptedTransport.Step {
        .post("\(backend)/rps/pass2", 200,
              "{\"version\": \"0.3\", \"authOTT\": \"\(authOTT)\", \"pass\": 2" + (otp.map { ", \"OTP\": \"\($0)\"" } ?? "") + "}")
    }

    static func rpa(status: Int = 200, body: String = "{\"someUserData\": \"This will be handled by onSuccessLogin handler.\"}")
        -> ScriptedTransport.Step {
        .post("\(backend)/mpinAuthenticate", status, body)
    }

    static func mobileAuthenticate(status: Int = 200, body: String = "{\"logoutData\": {\"userId\": \"testUser\", \"sessionToken\": \"c605\"}, \"logoutURL\": \"/logout\"}")
        -> ScriptedTransport.Step {
        .post("\(backend)/rps/authenticate", status, body)
    }

    static var registration: [ScriptedTransport.Step] { [register(active: true), signature(), clientSecret()] }
    static var timePermits: [ScriptedTransport.Step] { [timePermit(), timePermitStorage(), timePermitDTA()] }
}
