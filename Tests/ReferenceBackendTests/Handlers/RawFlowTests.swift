import Foundation
import MPinCrypto
import SDKSeams
import Testing

@testable import ReferenceBackend

/// Server rules checked with raw requests: the block that outlives a right PIN, OTP in pass 2,
/// one y per pass 1, expiry of pass 1 and of the authOTT, no WWW-Authenticate.
@Suite struct RawFlowTests {
    @Test func blockedStaysBlockedUntilReRegistration() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("oscar")
        #expect(try await harness.rawAuthenticate(identity).status == 200)
        let statuses = try await [1, 2, 3, 4].asyncMap { _ in try await harness.rawAuthenticate(identity, pin: 1).status
        }
        #expect(statuses == [401, 401, 410, 410])
        // The right PIN no longer helps.
        let blocked = try await harness.rawAuthenticate(identity)
        #expect(blocked.status == 410 && blocked.message == "User blocked")
        // A new registration (a new M-Pin ID) starts afresh.
        let again = try await harness.rawRegister("oscar")
        #expect(again.mpinID != identity.mpinID)
        #expect(try await harness.rawAuthenticate(again).status == 200)
    }

    @Test func unauthorizedAnswersCarryNoChallenge() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("peggy")
        let wrong = try await harness.rawAuthenticate(identity, pin: 9)
        #expect(wrong.status == 401 && wrong.message == "Wrong PIN.")
        #expect(wrong.header("WWW-Authenticate") == nil)
        #expect(wrong.header("Content-Type") == "application/json; charset=utf-8")
    }

    @Test func passTwoIssuesOTPWhenAsked() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("quinn")
        let plain = try await harness.rawPasses(identity)
        #expect(plain.json["OTP"] == nil && plain.string("authOTT").count == 32 && plain.json["pass"] as? Int == 2)
        let withOTP = try await harness.rawPasses(identity, otp: true)
        #expect(withOTP.string("OTP").count == 6)
    }

    @Test func eachYAnswersOnePassTwo() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("rupert")
        let pass2 = try await harness.rawPasses(identity)
        #expect(pass2.status == 200)
        let replay = try await harness.send(
            .post, "/rps/pass2",
            body: BackendHarness.json([
                "mpin_id": identity.mpinID, "V": try await harness.validU(identity), "WID": "0", "OTP": false,
            ]))
        #expect(replay.status == 403 && replay.message.contains("pass one"))
    }

    @Test func passOneAndAuthOTTExpire() async throws {
        let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)
        let harness = try await BackendHarness.start(clock: clock)
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("sybil")
        let mpin = MPin()
        var system = SystemRandomNumberGenerator()
        let x = mpin.randomScalar(using: &system)
        let share1 = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        let share2 = try await harness.send(
            .get, "/dta2/timePermit?hash_mpin_id=\(share1.string("storageId"))&signature=\(share1.string("signature"))")
        let permit = mpin.recombineG1(
            Hex.decode(share1.string("timePermit"))!, Hex.decode(share2.string("timePermit"))!)
        let date = UInt32(share1.json["date"] as! Int)
        let one = try #require(
            mpin.client1(date: date, id: identity.id, x: x, pin: 1234, token: identity.token, permit: permit))
        let pass1 = try await harness.send(
            .post, "/rps/pass1",
            body: BackendHarness.json([
                "mpin_id": identity.mpinID, "U": Hex.encode(one.u), "UT": Hex.encode(one.ut!),
            ]))
        let v = try #require(mpin.client2(x: x, y: Hex.decode(pass1.string("y"))!, sec: one.sec))
        clock.advance(seconds: 16)
        let late = try await harness.send(
            .post, "/rps/pass2",
            body: BackendHarness.json([
                "mpin_id": identity.mpinID, "V": Hex.encode(v), "WID": "0", "OTP": false,
            ]))
        #expect(late.status == 408)

        let pass2 = try await harness.rawPasses(identity)
        clock.advance(seconds: 61)
        let slow = try await harness.send(
            .post, "/mpinAuthenticate", body: #"{"mpinResponse":{"authOTT":"\#(pass2.string("authOTT"))"}}"#)
        #expect(slow.status == 408)
    }

    @Test func signedRequestsExpire() async throws {
        let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)
        let harness = try await BackendHarness.start(clock: clock)
        defer { Task { await harness.stop() } }
        let registered = try await harness.send(.put, "/rps/user", body: #"{"userId":"trent","mobile":1}"#)
        let signature = try await harness.send(
            .get, "/rps/signature/\(registered.string("mpinId"))?regOTT=\(registered.string("regOTT"))")
        let params = signature.string("params")
        #expect(try await harness.send(.get, "/dta1/clientSecret?" + params).status == 200)
        // Tampered: 401.
        let tampered = params.replacingOccurrences(of: "hash_user_id=", with: "hash_user_id=x")
        #expect(try await harness.send(.get, "/dta2/clientSecret?" + tampered).status == 401)
        clock.advance(seconds: 61)
        let expired = try await harness.send(.get, "/dta2/clientSecret?" + params)
        #expect(expired.status == 408 && !expired.message.isEmpty)

        // Time-permit signatures are good for their day (and the first hour of the next).
        let identity = try await harness.rawRegister("trudy")
        let share1 = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        let query =
            "/dta2/timePermit?hash_mpin_id=\(share1.string("storageId"))&signature=\(share1.string("signature"))"
        #expect(try await harness.send(.get, query).status == 200)
        clock.advance(seconds: 2 * 86_400)
        #expect(try await harness.send(.get, query).status == 408)
        #expect(
            try await harness.send(.get, query.replacingOccurrences(of: "signature=", with: "signature=0")).status
                == 401)
    }
}

extension Sequence {
    /// Maps in order, one element at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
