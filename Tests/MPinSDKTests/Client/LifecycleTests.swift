import MPinSDK
import Testing

@Suite struct LifecycleTests {
    /// docs/protocol.md §9 testNoInit: every API gives FLOW_ERROR before initialize (and after destroy).
    @Test func everyCallNeedsInitialize() async throws {
        let harness = Harness()
        let client = harness.client
        // makeNewUser needs an initialized SDK as well: make the user with another client.
        let other = Harness()
        try await other.start()
        let user = try await other.client.makeNewUser(id: "u")
        let calls: [(String, () async throws(MPinError) -> Void)] = [
            ("testBackend", { () async throws(MPinError) in try await client.testBackend(Canned.backend) }),
            ("setBackend", { () async throws(MPinError) in try await client.setBackend(Canned.backend) }),
            ("makeNewUser", { () async throws(MPinError) in _ = try await client.makeNewUser(id: "x") }),
            ("deleteUser", { () async throws(MPinError) in try await client.deleteUser(user) }),
            ("listUsers", { () async throws(MPinError) in _ = try await client.listUsers() }),
            ("listUsersBackend", { () async throws(MPinError) in _ = try await client.listUsers(backend: "b") }),
            ("listAllUsers", { () async throws(MPinError) in _ = try await client.listAllUsers() }),
            ("listBackends", { () async throws(MPinError) in _ = try await client.listBackends() }),
            ("startRegistration", { () async throws(MPinError) in try await client.startRegistration(user) }),
            ("restartRegistration", { () async throws(MPinError) in try await client.restartRegistration(user) }),
            ("confirmRegistration", { () async throws(MPinError) in try await client.confirmRegistration(user) }),
            (
                "finishRegistration",
                { () async throws(MPinError) in try await client.finishRegistration(user, pin: "1") }
            ),
            ("startAuthentication", { () async throws(MPinError) in try await client.startAuthentication(user) }),
            ("checkAccessNumber", { () async throws(MPinError) in try await client.checkAccessNumber("1234560") }),
            (
                "finishAuthentication",
                { () async throws(MPinError) in try await client.finishAuthentication(user, pin: "1") }
            ),
            (
                "finishAuthenticationOTP",
                { () async throws(MPinError) in _ = try await client.finishAuthenticationOTP(user, pin: "1") }
            ),
            (
                "finishAuthenticationAN",
                { () async throws(MPinError) in
                    try await client.finishAuthenticationAN(user, pin: "1", accessNumber: "1234560")
                }
            ),
            (
                "finishAuthenticationAC",
                { () async throws(MPinError) in
                    try await client.finishAuthentication(user, pin: "1", accessCode: "ac")
                }
            ),
            (
                "finishAuthenticationAuthz",
                { () async throws(MPinError) in
                    _ = try await client.finishAuthenticationAuthz(user, pin: "1", accessCode: "ac")
                }
            ),
            (
                "getSessionDetails",
                { () async throws(MPinError) in _ = try await client.getSessionDetails(accessCode: "a") }
            ),
            ("abortSession", { () async throws(MPinError) in try await client.abortSession(accessCode: "a") }),
            (
                "getServiceDetails",
                { () async throws(MPinError) in _ = try await client.getServiceDetails(url: "https://s") }
            ),
            (
                "getAccessCode",
                { () async throws(MPinError) in _ = try await client.getAccessCode(authorizationURL: "https://a") }
            ),
            ("setClientID", { () async throws(MPinError) in try await client.setClientID("c") }),
            ("addTrustedDomain", { () async throws(MPinError) in try await client.addTrustedDomain("d") }),
            ("addCustomHeaders", { () async throws(MPinError) in try await client.addCustomHeaders(["a": "b"]) }),
        ]
        for (name, call) in calls {
            let error = await mpinError(call)
            #expect(error?.code == .flowError, "\(name)")
        }
        #expect(await client.canLogout(user) == false)
        #expect(await client.logout(user) == false)
        #expect(await client.clientParameter("appID") == "")
        #expect(harness.transport.requests.isEmpty)

        try await harness.start()
        #expect(await client.isInitialized)
        await client.destroy()
        let error = await mpinError { () async throws(MPinError) in _ = try await client.listAllUsers() }
        #expect(error?.code == .flowError)
        #expect(client.version == "2.2.0")
    }

    @Test func initializeWithoutBackendSendsNothing() async throws {
        let harness = Harness()
        try await harness.client.initialize(configuration: [:])
        #expect(harness.transport.requests.isEmpty)
        let error = await mpinError { () async throws(MPinError) in _ = try await harness.client.listUsers() }
        #expect(error?.code == .flowError)
    }

    @Test(arguments: [
        ["backend": Canned.backend, "rps_prefix": "/custom/"],
        ["RPA_server": Canned.backend + "/", "rpsPrefix": "custom"],
    ])
    func configurationKeys(configuration: [String: String]) async throws {
        let harness = Harness([.get(Canned.backend + "/custom/clientSettings", 200, Canned.settings())])
        try await harness.client.initialize(configuration: configuration)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
    }
}
