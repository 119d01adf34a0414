import Foundation
import MPinCrypto
import SDKSeams
import Testing

@testable import ReferenceBackend

/// An identity registered over raw HTTP, with the client's crypto done here: for tests that
/// need requests the SDK would never send.
struct RawIdentity {
    let userID: String
    let mpinID: String
    let id: [UInt8]
    let token: [UInt8]
}

extension BackendHarness {
    var mpin: MPin { MPin() }

    /// Registers through `PUT /rps/user`, the signature and `/dta2/clientSecret`, in auto mode.
    func rawRegister(_ userID: String, pin: Int32 = 1234, headers: HTTPHeaders = [:], wid: String? = nil) async throws
        -> RawIdentity
    {
        var body: [String: Any] = ["userId": userID, "mobile": 1]
        if let wid { body["wid"] = wid }
        let registered = try await send(.put, "/rps/user", body: Self.json(body), headers: headers)
        #expect(registered.status == 200, "\(registered.text)")
        let mpinID = registered.string("mpinId")
        let signature = try await send(
            .get, "/rps/signature/\(mpinID)?regOTT=\(registered.string("regOTT"))", headers: headers)
        #expect(signature.status == 200, "\(signature.text)")
        let share2 = try await send(.get, "/dta2/clientSecret?" + signature.string("params"))
        #expect(share2.status == 200, "\(share2.text)")
        let id = try #require(Hex.decode(mpinID))
        let cs1 = try #require(Hex.decode(signature.string("clientSecretShare")))
        let cs2 = try #require(Hex.decode(share2.string("clientSecret")))
        let secret = try #require(mpin.recombineG1(cs1, cs2))
        let token = try #require(mpin.extractPIN(id: id, pin: pin, token: secret))
        return RawIdentity(userID: userID, mpinID: mpinID, id: id, token: token)
    }

    /// Pass 1 and pass 2 with the Milagro flavour's time permits (or none on the MFA platform);
    /// returns the pass-2 answer.
    func rawPasses(
        _ identity: RawIdentity, pin: Int32 = 1234, wid: String = "0", otp: Bool = false,
        permits: Bool = true, headers: HTTPHeaders = [:], x: [UInt8]? = nil
    ) async throws -> RawResponse {
        var date: UInt32 = 0
        var permit: [UInt8]?
        if permits {
            let share1 = try await send(.get, "/rps/timePermit/\(identity.mpinID)")
            #expect(share1.status == 200, "\(share1.text)")
            date = UInt32(share1.json["date"] as? Int ?? 0)
            let share2 = try await send(
                .get,
                "/dta2/timePermit?hash_mpin_id=\(share1.string("storageId"))&signature=\(share1.string("signature"))")
            #expect(share2.status == 200, "\(share2.text)")
            let tp1 = try #require(Hex.decode(share1.string("timePermit")))
            let tp2 = try #require(Hex.decode(share2.string("timePermit")))
            permit = mpin.recombineG1(tp1, tp2)
        }
        var system = SystemRandomNumberGenerator()
        let x = x ?? mpin.randomScalar(using: &system)
        let one = try #require(
            mpin.client1(date: date, id: identity.id, x: x, pin: pin, token: identity.token, permit: permit))
        let pass1 = try await send(
            .post, "/rps/pass1",
            body: Self.json([
                "pass": 1, "mpin_id": identity.mpinID,
                "U": Hex.encode(one.u), "UT": Hex.encode(one.ut ?? []),
            ]),
            headers: headers)
        #expect(pass1.status == 200, "\(pass1.text)")
        let y = try #require(Hex.decode(pass1.string("y")))
        let v = try #require(mpin.client2(x: x, y: y, sec: one.sec))
        return try await send(
            .post, "/rps/pass2",
            body: Self.json([
                "pass": 2, "mpin_id": identity.mpinID, "V": Hex.encode(v),
                "WID": wid, "OTP": otp,
            ]), headers: headers)
    }

    /// A whole direct authentication at the demo RPA; returns its answer.
    func rawAuthenticate(_ identity: RawIdentity, pin: Int32 = 1234) async throws -> RawResponse {
        let pass2 = try await rawPasses(identity, pin: pin)
        return try await send(
            .post, "/mpinAuthenticate", body: #"{"mpinResponse":{"authOTT":"\#(pass2.string("authOTT"))"}}"#)
    }
}
