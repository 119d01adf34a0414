import MPinSDK
import ReferenceBackend
import Testing

/// The SDK over libcurl against the in-process backend: registration in each activation mode,
/// then an authentication.
@Suite struct SDKRegistrationFlowTests {
    @Test(arguments: ActivationMode.allCases)
    func registerAndAuthenticate(mode: ActivationMode) async throws {
        let harness = try await BackendHarness.start(activation: mode)
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await client.makeNewUser(id: "alice@example.com")

        switch mode {
        case .auto:
            try await client.startRegistration(user)
            #expect(user.state == .activated)
        case .email:
            try await client.startRegistration(user)
            #expect(user.state == .startedRegistration)
            // Not verified yet: the signature answers 401.
            #expect(await MPinError.code { try await client.confirmRegistration(user) } == .identityNotVerified)
            let mail = try #require(await harness.backend.lastMessage(for: "alice@example.com"))
            #expect(mail.kind == .link && mail.mpinID == user.mpinID)
            let opened = try await harness.send(.get, String(mail.value.dropFirst(harness.baseURL.count)))
            #expect(opened.status == 200)
        case .code:
            // Without a code the registration is refused (403).
            #expect(await MPinError.code { try await client.startRegistration(user) } == .identityNotAuthorized)
            let requested = try await harness.send(.post, "/activationCode", body: #"{"userId":"alice@example.com"}"#)
            #expect(requested.status == 200)
            #expect(
                !requested.text.contains(
                    try #require(await harness.backend.lastMessage(for: "alice@example.com")).value))
            let code = try #require(await harness.backend.lastMessage(for: "alice@example.com")).value
            #expect(
                await MPinError.code { try await client.startRegistration(user, activateCode: "0" + code) }
                    == .identityNotAuthorized)
            try await client.startRegistration(user, activateCode: code)
            #expect(user.state == .activated)
        }
        try await client.confirmRegistration(user)
        try await client.finishRegistration(user, pin: "1234")
        #expect(user.state == .registered)

        try await client.startAuthentication(user)
        let data = try await client.finishAuthentication(user, pin: "1234")
        #expect(data.contains("someUserData"))
    }

    @Test func secondSignatureRequestIsRefused() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await client.makeNewUser(id: "bob")
        try await client.startRegistration(user)
        try await client.confirmRegistration(user)
        // The registration record was consumed by the first signature request.
        #expect(await MPinError.code { try await client.confirmRegistration(user) } == .identityNotVerified)
    }

    @Test func restartKeepsTheMpinID() async throws {
        let harness = try await BackendHarness.start(activation: .email)
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await client.makeNewUser(id: "carol")
        try await client.startRegistration(user)
        let first = user.mpinID
        try await client.restartRegistration(user)
        #expect(user.mpinID == first && user.state == .startedRegistration)
        let mails = await harness.backend.mailbox().filter { $0.userID == "carol" }
        #expect(mails.count == 2)
        // The link of the restarted registration activates it.
        _ = try await harness.send(.get, String(mails[1].value.dropFirst(harness.baseURL.count)))
        try await client.confirmRegistration(user)
        try await client.finishRegistration(user, pin: "4321")
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "4321")
    }
}
