import Foundation
import MPinSDK
import Testing

@Suite struct RegistrationTests {
    @Test func fullRegistration() async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([Canned.register(active: false), Canned.signature(), Canned.clientSecret()])
        let client = harness.client
        let user = try await client.makeNewUser(id: Canned.userID, deviceName: "Phone")
        #expect(user.state == .invalid)
        #expect(try await client.listUsers().isEmpty)

        try await client.startRegistration(user, userData: "data")
        #expect(user.state == .startedRegistration)
        #expect(user.mpinID == Canned.mpinID)
        #expect(user.backend == Canned.backendKey)
        #expect(try await client.listUsers().map(\.id) == [Canned.userID])
        #expect(
            harness.bodies[1]
                == "{\n\t\"userId\" : \"testUser\",\n\t\"mobile\" : 1,\n\t\"deviceName\" : \"Phone\",\n\t\"userData\" : \"data\"\n}"
        )
        #expect(harness.storage.text(.secure)?.contains(Canned.regOTT) == true)
        #expect(harness.storage.text(.nonSecure)?.contains("STARTED_REGISTRATION") == true)

        try await client.confirmRegistration(user)
        #expect(user.state == .startedRegistration)
        #expect(
            harness.transport.requests[2].url
                == "\(Canned.backend)/rps/signature/\(Canned.mpinID)?regOTT=\(Canned.regOTT)")
        #expect(harness.transport.requests[3].url == "https://dta.test/v3/clientSecret?\(Canned.params)")

        try await client.finishRegistration(user, pin: "1234")
        #expect(user.state == .registered)
        #expect(harness.storage.text(.secure)?.contains(Canned.regOTT) == false)
        #expect(harness.storage.text(.secure)?.contains("token") == true)
        #expect(harness.storage.text(.nonSecure)?.contains("REGISTERED") == true)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
    }

    @Test func activeAtOnceAndOptionalFields() async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([Canned.register(active: true)])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user, activateCode: "otc", accessCode: "wid1", pushToken: "push")
        #expect(user.state == .activated)
        #expect(
            harness.bodies[1]
                == "{\n\t\"userId\" : \"testUser\",\n\t\"mobile\" : 1,\n\t\"activateCode\" : \"otc\",\n\t\"wid\" : \"wid1\",\n\t\"pushToken\" : \"push\"\n}"
        )
        // docs/protocol.md §3.1: restart needs STARTED_REGISTRATION exactly.
        let error = await mpinError { () async throws(MPinError) in try await harness.client.restartRegistration(user) }
        #expect(error?.code == .flowError)
    }

    @Test func restartKeepsTheMPinID() async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([
            Canned.register(active: false),
            .put(
                "\(Canned.backend)/rps/user/\(Canned.mpinID)", 200,
                "{\"active\": true, \"mpinId\": \"\(Canned.mpinID)\", \"regOTT\": \"99\"}"),
        ])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user, accessCode: "ac")
        try await harness.client.restartRegistration(user, userData: "more")
        #expect(user.state == .activated)
        #expect(
            harness.bodies[2]
                == "{\n\t\"userId\" : \"testUser\",\n\t\"mobile\" : 1,\n\t\"userData\" : \"more\",\n\t\"wid\" : \"ac\",\n\t\"regOTT\" : \"\(Canned.regOTT)\"\n}"
        )
        #expect(harness.storage.text(.secure)?.contains("\"99\"") == true)
    }

    @Test func preconditions() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let client = harness.client
        for (name, call) in [
            ("start", { () async throws(MPinError) in try await client.startRegistration(user) }),
            ("restart", { () async throws(MPinError) in try await client.restartRegistration(user) }),
            ("confirm", { () async throws(MPinError) in try await client.confirmRegistration(user) }),
            ("finish", { () async throws(MPinError) in try await client.finishRegistration(user, pin: "1") }),
        ] as [(String, () async throws(MPinError) -> Void)] {
            #expect(await mpinError(call)?.code == .flowError, "\(name)")
        }
        // A new INVALID user cannot confirm, finish, restart or authenticate.
        let fresh = try await client.makeNewUser(id: "other")
        #expect(
            await mpinError { () async throws(MPinError) in try await client.confirmRegistration(fresh) }?.code
                == .flowError)
        #expect(
            await mpinError { () async throws(MPinError) in try await client.finishRegistration(fresh, pin: "1") }?.code
                == .flowError)
        #expect(
            await mpinError { () async throws(MPinError) in try await client.startAuthentication(fresh) }?.code
                == .flowError)
        // The same id on the same backend cannot register twice (Milagro flavour).
        let twin = try await client.makeNewUser(id: Canned.userID)
        #expect(
            await mpinError { () async throws(MPinError) in try await client.startRegistration(twin) }?.code
                == .flowError)
        #expect(harness.transport.remaining == 0)
    }

    @Test func finishBeforeConfirmAndEmptyPIN() async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([Canned.register(active: true), Canned.signature(), Canned.clientSecret()])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user)
        let early = await mpinError { () async throws(MPinError) in
            try await harness.client.finishRegistration(user, pin: "1234")
        }
        #expect(early?.code == .flowError)
        #expect(early?.message.contains("not verified") == true)
        try await harness.client.confirmRegistration(user)
        let empty = await mpinError { () async throws(MPinError) in
            try await harness.client.finishRegistration(user, pin: "")
        }
        #expect(empty?.code == .pinInputCanceled)
        #expect(user.state == .activated)
        try await harness.client.finishRegistration(user, pin: "1234")
        #expect(user.state == .registered)
    }

    @Test func integerMappingRejectsNonDigits() async throws {
        let harness = Harness(options: .init(pinMapping: .integer))
        try await harness.start()
        harness.transport.add(Canned.registration)
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user)
        try await harness.client.confirmRegistration(user)
        let error = await mpinError { () async throws(MPinError) in
            try await harness.client.finishRegistration(user, pin: "12ab")
        }
        #expect(error?.code == .flowError)
        try await harness.client.finishRegistration(user, pin: "1234")
    }

    @Test(arguments: [
        (403, StatusCode.identityNotAuthorized), (400, .httpRequestError), (404, .httpRequestError),
        (500, .httpServerError),
    ])
    func registerErrors(http: Int, expected: StatusCode) async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([Canned.register(status: http)])
        let user = try await harness.client.makeNewUser(id: "")
        let error = await mpinError { () async throws(MPinError) in try await harness.client.startRegistration(user) }
        #expect(error?.code == expected)
        #expect(user.state == .invalid)
        #expect(try await harness.client.listAllUsers().isEmpty)
    }

    /// docs/protocol.md §7.1: IDENTITY_NOT_VERIFIED leaves the state; 408 from the D-TA is REQUEST_EXPIRED.
    @Test(arguments: [
        (400, 200, StatusCode.identityNotVerified), (401, 200, .identityNotVerified), (200, 408, .requestExpired),
        (404, 200, .httpRequestError),
    ])
    func confirmErrors(signature: Int, secret: Int, expected: StatusCode) async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add(
            [Canned.register(), Canned.signature(status: signature)]
                + (signature == 200 ? [Canned.clientSecret(status: secret)] : []))
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(user)
        let error = await mpinError { () async throws(MPinError) in try await harness.client.confirmRegistration(user) }
        #expect(error?.code == expected)
        #expect(user.state == .startedRegistration)
        #expect(
            await mpinError { () async throws(MPinError) in try await harness.client.finishRegistration(user, pin: "1")
            }?.code == .flowError)
    }

    @Test func missingValuesAreParseErrors() async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([.put("\(Canned.backend)/rps/user", 200, "{\"regOTT\": \"aa\"}")])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        #expect(
            await mpinError { () async throws(MPinError) in try await harness.client.startRegistration(user) }?.code
                == .responseParseError)
    }

    /// An error carries the body's first 512 characters (nil for an empty body), and a refusal
    /// without a JSON `message` quotes the first 200 of them in its message.
    @Test(
        arguments: [
            (500, "boom", "boom", ": boom"),
            (
                500, String(repeating: "x", count: 600), String(repeating: "x", count: 512),
                ": " + String(repeating: "x", count: 200)
            ),
            (500, "", nil, "(HTTP 500)"),
            (200, "not json", "not json", "The response is not JSON"),
        ] as [(Int, String, String?, String)])
    func errorsCarryTheBodysStart(status: Int, body: String, snippet: String?, messageEnd: String) async throws {
        let harness = Harness()
        try await harness.start()
        harness.transport.add([.put("\(Canned.backend)/rps/user", status, body)])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        let error = try #require(
            await mpinError { () async throws(MPinError) in try await harness.client.startRegistration(user) })
        #expect(error.context.responseBody == snippet)
        #expect(error.context.httpStatus == status)
        #expect(
            status == 200 ? error.message.hasPrefix(messageEnd) : error.message.hasSuffix(messageEnd),
            "\(error.message)")
    }

    @Test func deleteUserForgetsEverything() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        try await harness.client.deleteUser(user)
        #expect(user.state == .invalid)
        #expect(user.mpinID.isEmpty)
        #expect(try await harness.client.listUsers().isEmpty)
        #expect(harness.storage.text(.secure)?.contains("token") == false)
        #expect(harness.storage.text(.nonSecure)?.contains(Canned.mpinID) == false)
        // The same id can register again.
        harness.transport.add([Canned.register()])
        let again = try await harness.client.makeNewUser(id: Canned.userID)
        try await harness.client.startRegistration(again)
        #expect(again.state == .startedRegistration)
    }

    @Test func listsPerBackend() async throws {
        let harness = Harness()
        _ = try await harness.registered()
        harness.transport.add([
            .get(
                "https://other.test/rps/clientSettings", 200,
                Canned.settings().replacingOccurrences(of: "\"/rps/user\"", with: "\"https://other.test/rps/user\"")),
            .put("https://other.test/rps/user", 200, "{\"active\": false, \"mpinId\": \"abcd\", \"regOTT\": \"01\"}"),
        ])
        try await harness.client.setBackend("https://other.test/")
        let second = try await harness.client.makeNewUser(id: "second")
        try await harness.client.startRegistration(second)
        #expect(try await harness.client.listUsers().map(\.id) == ["second"])
        #expect(try await harness.client.listUsers(backend: Canned.backend).map(\.id) == [Canned.userID])
        #expect(try await harness.client.listAllUsers().count == 2)
        #expect(try await harness.client.listBackends() == [Canned.backendKey, "other.test"])
    }
}
