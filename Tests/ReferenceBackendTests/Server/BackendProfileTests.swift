import Foundation
import MPinCrypto
import MPinSDK
import SDKSeams
import Testing

@testable import ReferenceBackend

/// The `milagro-oss` profile: each point measured on the open-source Milagro server (docs/protocol.md
/// §13), checked against the default profile where they differ.
@Suite struct BackendProfileTests {
    static func start(
        _ profile: BackendProfile = .milagroOSS, seed: String? = "tests", activation: ActivationMode = .auto,
        clock: any BackendClock = SystemBackendClock()
    ) async throws -> BackendHarness {
        try await BackendHarness.start(activation: activation, seed: seed, clock: clock) { $0.profile = profile }
    }

    @Test func clientSettings() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let settings = try await harness.send(.get, "/rps/clientSettings").json
        let base = harness.baseURL
        for key in [
            "registerURL", "signatureURL", "timePermitsURL", "timePermitsStorageURL", "mpinAuthServerURL",
            "mobileAuthenticateURL", "accessNumberURL", "getAccessNumberURL", "setupDoneURL",
        ] {
            let value = settings[key] as? String ?? ""
            #expect(value.hasPrefix(base + "/"), "\(key): \(value)")
        }
        // The RPS's RPAAuthenticateUserURL option, relative as the demo's configuration gives it.
        #expect(settings["authenticateURL"] as? String == "/mpinAuthenticate")
        #expect(settings["certivoxURL"] as? String == base + "/dta2/")
        #expect(settings["setupDoneURL"] as? String == base + "/rps/setupDone")
        #expect(settings["usePermits"] == nil)
        #expect(settings["requestOTP"] as? Bool == false)
        #expect(settings["useNFC"] as? Bool == false && settings["useWebSocket"] as? Bool == false)
        let seedValue = settings["seedValue"] as? String ?? ""
        #expect(seedValue.count == 200 && Hex.decode(seedValue) != nil)
        // A new one for each request, from the seeded generator: the same seed gives the same values.
        #expect(try await harness.send(.get, "/rps/clientSettings").string("seedValue") != seedValue)
        let again = try await Self.start()
        defer { Task { await again.stop() } }
        #expect(try await again.send(.get, "/rps/clientSettings").string("seedValue") == seedValue)

        let standard = try await Self.start(.default)
        defer { Task { await standard.stop() } }
        let plain = try await standard.send(.get, "/rps/clientSettings").json
        #expect(plain["registerURL"] as? String == "/rps/user" && plain["usePermits"] as? Bool == true)
        #expect(
            plain["seedValue"] == nil && plain["setupDoneURL"] == nil && plain["useNFC"] == nil
                && plain["useWebSocket"] == nil)
    }

    @Test func dtaAnswersHaveNoVersion() async throws {
        for profile in BackendProfile.allCases {
            let harness = try await Self.start(profile)
            defer { Task { await harness.stop() } }
            let registered = try await harness.send(.put, "/rps/user", body: #"{"userId":"uma","mobile":1}"#)
            let signature = try await harness.send(
                .get, "/rps/signature/\(registered.string("mpinId"))?regOTT=\(registered.string("regOTT"))")
            let share2 = try await harness.send(.get, "/dta2/clientSecret?" + signature.string("params"))
            #expect(share2.status == 200)
            #expect((share2.json["version"] == nil) == (profile == .milagroOSS), "\(profile)")
            let permit = try await harness.send(.get, "/rps/timePermit/\(registered.string("mpinId"))")
            let permit2 = try await harness.send(
                .get,
                "/dta2/timePermit?hash_mpin_id=\(permit.string("storageId"))&signature=\(permit.string("signature"))")
            #expect(permit2.status == 200 && (permit2.json["version"] == nil) == (profile == .milagroOSS), "\(profile)")
        }
    }

    @Test func everyUnauthorizedCarriesTheChallenge() async throws {
        // RPS: a signature request before the e-mailed activation.
        let mailing = try await Self.start(activation: .email)
        defer { Task { await mailing.stop() } }
        let registered = try await mailing.send(.put, "/rps/user", body: #"{"userId":"vera","mobile":1}"#)
        let early = try await mailing.send(
            .get, "/rps/signature/\(registered.string("mpinId"))?regOTT=\(registered.string("regOTT"))")
        #expect(early.status == 401 && early.header("WWW-Authenticate") == "Authenticate")

        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        // D-TA: a bad signature.
        let dta = try await harness.send(
            .get, "/dta2/timePermit?hash_mpin_id=\(String(repeating: "a", count: 64))&signature=00")
        #expect(dta.status == 401 && dta.header("WWW-Authenticate") == "Authenticate")
        // Demo RPA: a wrong PIN on a direct login; RPS: a wrong PIN on an access-number login.
        let identity = try await harness.rawRegister("vera")
        let wrong = try await harness.rawAuthenticate(identity, pin: 1)
        #expect(wrong.status == 401 && wrong.header("WWW-Authenticate") == "Authenticate")
        let number = try await harness.send(.post, "/rps/getAccessNumber", body: "{}").string("accessNumber")
        let pass2 = try await harness.rawPasses(identity, pin: 1, wid: number)
        let mobile = try await harness.send(
            .post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(pass2.string("authOTT"))"}}"#)
        #expect(
            mobile.status == 401 && mobile.header("WWW-Authenticate") == "Authenticate"
                && mobile.message == "Wrong PIN.")
        // Other statuses carry none, and neither does the default profile.
        #expect(try await harness.send(.get, "/rps/signature/00?regOTT=00").header("WWW-Authenticate") == nil)
        let standard = try await Self.start(.default)
        defer { Task { await standard.stop() } }
        let plain = try await standard.send(
            .get, "/dta2/timePermit?hash_mpin_id=\(String(repeating: "a", count: 64))&signature=00")
        #expect(plain.status == 401 && plain.header("WWW-Authenticate") == nil)
    }

    @Test func demoRPABodies() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("walt")
        let login = try await harness.rawAuthenticate(identity)
        #expect(login.status == 200 && login.json.keys.sorted() == ["someUserData"])
        let statuses = try await [1, 2, 3].asyncMap { _ in try await harness.rawAuthenticate(identity, pin: 1) }
        #expect(statuses.map(\.status) == [401, 401, 410])
        #expect(statuses.allSatisfy { $0.json.keys.sorted() == ["someUserData"] })
        // PUT /rps/user: 400 with an empty body.
        let missing = try await harness.send(.put, "/rps/user", body: #"{"mobile":1}"#)
        #expect(missing.status == 400 && missing.text.isEmpty)
        // A restart of a signed identity: the registration item is gone, so a new M-Pin ID (memory storage).
        let restart = try await harness.send(
            .put, "/rps/user/\(identity.mpinID)", body: #"{"userId":"walt","regOTT":"00"}"#)
        #expect(restart.status == 200 && restart.string("mpinId") != identity.mpinID)

        let standard = try await Self.start(.default)
        defer { Task { await standard.stop() } }
        let refused = try await standard.send(.put, "/rps/user", body: #"{"mobile":1}"#)
        #expect(refused.status == 400 && refused.message == "UserId required")
    }

    /// `requestOTP` off: no OTP validity, so the SDK's OTP is RESPONSE_PARSE_ERROR while the call
    /// itself succeeds (docs/protocol.md §3.6, §13).
    @Test func otpLoginGivesResponseParseError() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "xena")
        #expect(user.state == .registered)
        try await client.startAuthentication(user)
        let otp = try await client.finishAuthenticationOTP(user, pin: "1234")
        #expect(otp.otp.count == 6)
        #expect(otp.status.code == .responseParseError)
    }

    /// The whole access-number login through the SDK with absolute URLs: held, released by the
    /// browser (no `userId`, no cookie), logged out by the phone.
    @Test func heldAccessNumberLogin() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "yuri")
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "{}")
        let browser = BrowserPinPad(harness: harness, webOTT: shown.string("webOTT"))
        try await client.checkAccessNumber(shown.string("accessNumber"))
        try await client.startAuthentication(user)
        let phone = Task {
            try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: shown.string("accessNumber"))
        }
        let held = try await browser.poll(until: "authenticate")
        #expect(held.json["statusCode"] as? Int == 0 && harness.backend.heldLogins == 1)
        let login = try await browser.logIn(authOTT: held.string("authOTT"))
        #expect(
            login.status == 200 && login.json.keys.sorted() == ["someUserData"]
                && login.header("Set-Cookie")?.hasPrefix("mpindemo_session=\"2|1:0|") == true)
        try await phone.value
        #expect(try await browser.poll().json["statusCode"] as? Int == 0)
        #expect(await client.logout(user))
    }

    @Test func codeStatusCapitalisation() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let qrURL = try await harness.send(.post, "/rps/getQrUrl", body: "{}").string("qrUrl")
        let code = String(qrURL[qrURL.index(after: try #require(qrURL.lastIndex(of: "#")))...])
        let details = try await harness.send(.post, "/rps/codeStatus", body: #"{"status":"wid","wid":"\#(code)"}"#)
        #expect(details.json.keys.sorted() == ["AppLogoUrl", "AppName", "PrerollId"])
        let user = try await harness.send(
            .post, "/rps/codeStatus", body: #"{"status":"user","wid":"\#(code)","userId":"zoe"}"#)
        #expect(user.json.keys.sorted() == ["Status"] && user.string("Status") == "OK")
    }

    @Test func setupDone() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("abe")
        let done = try await harness.send(.post, "/rps/setupDone/\(identity.mpinID)", body: "{}")
        #expect(done.status == 200 && done.text.isEmpty)
        // The RPS answers any hex ID (RPSSetupDoneHandler looks nothing up).
        #expect(try await harness.send(.post, "/rps/setupDone/00", body: "{}").status == 200)
        let standard = try await Self.start(.default)
        defer { Task { await standard.stop() } }
        #expect(try await standard.send(.post, "/rps/setupDone/00", body: "{}").status == 404)
    }

    @Test func combinationsTheOpenSourceServerLacks() async throws {
        for (flavour, activation) in [(BackendFlavour.mfaPlatform, ActivationMode.auto), (.milagro, .code)] {
            let configuration = BackendConfiguration(flavour: flavour, activation: activation, profile: .milagroOSS)
            #expect(configuration.problem != nil)
            await #expect(throws: ServerStartError.self) { _ = try await ReferenceBackend.start(configuration) }
        }
        var timeout = BackendConfiguration()
        for seconds in [0, -1, 3600.5, .nan, .infinity] {
            timeout.loginTimeout = seconds
            #expect(timeout.problem?.contains("loginTimeout") == true, "\(seconds)")
        }
        timeout.loginTimeout = 3600
        #expect(timeout.problem == nil)
    }
}
