import Foundation
import OrderedJSON
import TestSupport
import Testing

@testable import MPinSDK

@Suite struct AuthenticationTests {
    @Test func timePermitsThenLogin() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let client = harness.client
        harness.transport.add(Canned.timePermits + [Canned.pass1(), Canned.pass2(), Canned.rpa()])
        try await client.startAuthentication(user)
        #expect(harness.storage.text(.nonSecure)?.contains(Canned.tp2) == true)
        let data = try await client.finishAuthentication(user, pin: "1234")
        #expect(data == "{\"someUserData\": \"This will be handled by onSuccessLogin handler.\"}")
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)

        let bodies = harness.bodies
        let pass1 = try JSONParser.parse(bodies[bodies.count - 3])
        #expect(pass1.objectMembers?.map(\.name) == ["pass", "mpin_id", "UT", "U"])
        #expect(pass1["mpin_id"]?.stringValue == Canned.mpinID)
        #expect(pass1["U"]?.stringValue?.count == 130)
        #expect(pass1["UT"]?.stringValue?.count == 130)
        let pass2 = try JSONParser.parse(bodies[bodies.count - 2])
        #expect(pass2.objectMembers?.map(\.name) == ["pass", "OTP", "WID", "V", "mpin_id"])
        #expect(pass2["OTP"] == .bool(false))
        #expect(pass2["WID"]?.stringValue == "0")
        // Milagro flavour: the whole pass-2 answer goes to the RPA.
        #expect(
            bodies.last
                == "{\n\t\"mpinResponse\" : {\n\t\t\"version\" : \"0.3\",\n\t\t\"authOTT\" : \"\(Canned.authOTT)\",\n\t\t\"pass\" : 2\n\t}\n}"
        )
    }

    /// The cached share 2 is reused when the server's day matches (docs/protocol.md §3.4 step 4a).
    @Test func cachedShare2IsReused() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(Canned.timePermits + [Canned.timePermit()])
        try await harness.client.startAuthentication(user)
        try await harness.client.startAuthentication(user)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
    }

    @Test func share2FromTheStorageURL() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add([Canned.timePermit(), Canned.timePermitStorage(status: 200, body: Canned.tp2 + "\n")])
        try await harness.client.startAuthentication(user)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
        #expect(harness.storage.text(.nonSecure)?.contains(Canned.tp2) == true)
    }

    /// 410 on a time permit is REVOKED and does not block (docs/protocol.md §11.8).
    @Test(arguments: [true, false])
    func revokedTimePermit(onShare1: Bool) async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(
            onShare1
                ? [Canned.timePermit(status: 410)]
                : [Canned.timePermit(), Canned.timePermitStorage(), Canned.timePermitDTA(status: 410)])
        let error = await mpinError { () async throws(MPinError) in try await harness.client.startAuthentication(user) }
        #expect(error?.code == .revoked)
        #expect(user.state == .registered)
        #expect(harness.storage.text(.secure)?.contains("token") == true)
    }

    @Test func finishNeedsStartAndAPIN() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let error = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.finishAuthentication(user, pin: "1234")
        }
        #expect(error?.code == .flowError)
        harness.transport.add(Canned.timePermits)
        try await harness.client.startAuthentication(user)
        let empty = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.finishAuthentication(user, pin: "")
        }
        #expect(empty?.code == .pinInputCanceled)
        #expect(harness.transport.remaining == 0)
    }

    @Test func wrongPINThenBlocked() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let client = harness.client
        harness.transport.add(Canned.timePermits)
        try await client.startAuthentication(user)
        for status in [401, 401] {
            harness.transport.add([
                Canned.pass1(), Canned.pass2(), Canned.rpa(status: status, body: "{\"message\":\"Wrong PIN.\"}"),
            ])
            let error = await mpinError { () async throws(MPinError) in
                _ = try await client.finishAuthentication(user, pin: "1235")
            }
            #expect(error?.code == .incorrectPIN)
            #expect(error?.message.contains("Wrong PIN.") == true)
            #expect(user.state == .registered)
        }
        harness.transport.add([
            Canned.pass1(), Canned.pass2(), Canned.rpa(status: 410, body: "{\"message\":\"Wrong PIN.\"}"),
        ])
        let blocked = await mpinError { () async throws(MPinError) in
            _ = try await client.finishAuthentication(user, pin: "1235")
        }
        #expect(blocked?.code == .incorrectPIN)
        #expect(blocked?.message.hasPrefix("User blocked") == true)
        #expect(user.state == .blocked)
        #expect(harness.storage.text(.secure)?.contains("token") == false)
        #expect(harness.storage.text(.nonSecure)?.contains("BLOCKED") == true)
        let after = await mpinError { () async throws(MPinError) in try await client.startAuthentication(user) }
        #expect(after?.code == .flowError)
    }

    @Test(arguments: [
        (408, StatusCode.requestExpired), (403, .identityNotAuthorized), (409, .clientSecretExpired),
        (412, .incorrectAccessNumber), (500, .httpServerError),
    ])
    func rpaErrors(http: Int, expected: StatusCode) async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(
            Canned.timePermits + [Canned.pass1(), Canned.pass2(), Canned.rpa(status: http, body: "")])
        try await harness.client.startAuthentication(user)
        let error = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.finishAuthentication(user, pin: "1234")
        }
        #expect(error?.code == expected)
        #expect(user.state == .registered)
    }

    /// Pass-1 and pass-2 errors are generic (docs/protocol.md §3.6).
    @Test func passErrorsAreGeneric() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(Canned.timePermits + [.post("\(Canned.backend)/rps/pass1", 403, "")])
        try await harness.client.startAuthentication(user)
        let error = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.finishAuthentication(user, pin: "1234")
        }
        #expect(error?.code == .httpRequestError)
        harness.transport.add([Canned.pass1(), .post("\(Canned.backend)/rps/pass2", 500, "Invalid pass one data")])
        let server = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.finishAuthentication(user, pin: "1234")
        }
        #expect(server?.code == .httpServerError)
        #expect(server?.message.contains("Invalid pass one data") == true)
    }

    @Test func withoutPermits() async throws {
        let settings = Canned.settings(usePermits: false)
        let harness = Harness()
        let user = try await harness.registered(settings: settings)
        harness.transport.add([Canned.pass1(), Canned.pass2(), Canned.rpa()])
        try await harness.client.startAuthentication(user)
        _ = try await harness.client.finishAuthentication(user, pin: "1234")
        let pass1 = try JSONParser.parse(harness.bodies[harness.bodies.count - 3])
        #expect(pass1["UT"]?.stringValue == "")
        #expect(harness.transport.problems.isEmpty)
        let client1 = harness.log.events.compactMap { event -> ClientEvent.CryptoStep? in
            if case .crypto(let step) = event, step.primitive == "client1" { return step } else { return nil }
        }.last
        #expect(client1?.inputs.first == NamedValue("date", "0"))
    }

    @Test func otp() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(
            Canned.timePermits + [
                Canned.pass1(), Canned.pass2(otp: "612614"),
                Canned.rpa(body: "{\"expireTime\": 1476187260000, \"ttlSeconds\": 60, \"nowTime\": 1476187200000}"),
            ])
        try await harness.client.startAuthentication(user)
        let otp = try await harness.client.finishAuthenticationOTP(user, pin: "1234")
        #expect(
            otp
                == OTP(
                    otp: "612614", expireTime: 1_476_187_260, ttlSeconds: 60, nowTime: 1_476_187_200, status: .ok,
                    receivedAt: FixedClock().milliseconds))
        #expect(try JSONParser.parse(harness.bodies[harness.bodies.count - 2])["OTP"] == .bool(true))
        #expect(
            harness.log.events.contains(.clock(.init(purpose: "otpReceived", milliseconds: FixedClock().milliseconds))))
    }

    /// The demo RPA sends no OTP times unless configured: the OTP's status says so, the call succeeds.
    @Test(
        arguments: [("612614", "{}", "OTP data is malformed"), (nil, "{}", "OTP not issued")]
            as [(String?, String, String)])
    func otpWithoutData(issued: String?, rpa: String, message: String) async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(Canned.timePermits + [Canned.pass1(), Canned.pass2(otp: issued), Canned.rpa(body: rpa)])
        try await harness.client.startAuthentication(user)
        let otp = try await harness.client.finishAuthenticationOTP(user, pin: "1234")
        #expect(otp.status == MPinStatus(.responseParseError, message))
    }

    @Test func accessNumberLoginAndLogout() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let client = harness.client
        harness.transport.add(
            Canned.timePermits + [
                Canned.pass1(), Canned.pass2(), Canned.mobileAuthenticate(),
                .post("\(Canned.backend)/logout", 200, ""),
            ])
        try await client.startAuthentication(user)
        #expect(await client.canLogout(user) == false)
        try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: "4241703")
        let pass2 = try JSONParser.parse(harness.bodies[harness.bodies.count - 2])
        #expect(pass2["WID"]?.stringValue == "4241703")
        #expect(await client.canLogout(user))
        #expect(await client.logout(user))
        #expect(harness.bodies.last == "{\n\t\"userId\" : \"testUser\",\n\t\"sessionToken\" : \"c605\"\n}")
        #expect(await client.canLogout(user) == false)
        #expect(await client.logout(user) == false)
        #expect(harness.transport.problems.isEmpty)
    }

    @Test func logoutFailureKeepsTheData() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(
            Canned.timePermits + [
                Canned.pass1(), Canned.pass2(), Canned.mobileAuthenticate(),
                .post("\(Canned.backend)/logout", 400, ""),
            ])
        try await harness.client.startAuthentication(user)
        try await harness.client.finishAuthenticationAN(user, pin: "1234", accessNumber: "4241703")
        #expect(await harness.client.logout(user) == false)
        #expect(await harness.client.canLogout(user))
    }

    @Test func wrongAccessNumberIs412() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(
            Canned.timePermits + [
                Canned.pass1(), Canned.pass2(),
                Canned.mobileAuthenticate(status: 412, body: "{\"message\":\"Invalid or expired access number\"}"),
            ])
        try await harness.client.startAuthentication(user)
        let error = await mpinError { () async throws(MPinError) in
            try await harness.client.finishAuthenticationAN(user, pin: "1234", accessNumber: "6419791")
        }
        #expect(error?.code == .incorrectAccessNumber)
        #expect(user.state == .registered)
    }
}
