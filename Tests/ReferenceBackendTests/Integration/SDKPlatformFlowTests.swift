import MPinSDK
import ReferenceBackend
import Testing

/// The MFA-platform flavour through the SDK: client id required, QR and authorize-URL web logins
/// held until the browser logs in, and the in-app login (not held) ending in an authorization code.
@Suite struct SDKPlatformFlowTests {
    @Test func clientIDIsRequired() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await harness.stop() } }
        let client = MPinClient(
            transport: harness.transport, storage: MemoryStorage(), options: .init(flavour: .mfaPlatform))
        try await client.initialize(configuration: [:])
        #expect(await MPinError.code { try await client.setBackend(harness.baseURL) } == .badUserAgent)
        try await client.setClientID("workbench")
        try await client.setBackend(harness.baseURL)
    }

    @Test func qrLogin() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await harness.stop() } }
        // The browser shows a QR code.
        let qr = try await harness.send(.post, "/rps/getQrUrl", body: "{}")
        let qrURL = qr.string("qrUrl"), webOTT = qr.string("webOTT")
        let landing = String(qrURL[..<qrURL.lastIndex(of: "#")!])
        let accessCode = String(qrURL[qrURL.index(after: qrURL.lastIndex(of: "#")!)...])

        // The phone scans it.
        let client = MPinClient(
            transport: harness.transport, storage: MemoryStorage(), options: .init(flavour: .mfaPlatform))
        try await client.initialize(configuration: [:])
        try await client.setClientID("workbench")
        let service = try await client.getServiceDetails(url: landing)
        try await client.setBackend(service.backendURL, rpsPrefix: service.rpsPrefix)
        let details = try await client.getSessionDetails(accessCode: accessCode)
        #expect(details.appName == "MPin Workbench" && !details.customerID.isEmpty)

        let user = try await harness.registeredUser(client, id: "lena@example.com", accessCode: accessCode)
        #expect(user.customerID == details.customerID && user.appID == "OIDC")
        let browser = BrowserPinPad(harness: harness, webOTT: webOTT)
        try await client.startAuthentication(user, accessCode: accessCode)
        let chosen = try await browser.poll()
        #expect(chosen.string("status") == "user" && chosen.string("userId") == "lena@example.com")

        // The phone's login is held until the browser logs in with the authOTT of its poll.
        let returned = Flag()
        let phone = Task {
            defer { returned.raise() }
            try await client.finishAuthentication(user, pin: "1234", accessCode: accessCode)
        }
        let held = try await browser.poll(until: "authenticate")
        #expect(held.string("userId") == "lena@example.com" && held.json["statusCode"] as? Int == 0)
        #expect(!returned.isSet && harness.backend.heldLogins == 1)
        let login = try await browser.logIn(authOTT: held.string("authOTT"))
        #expect(login.status == 200 && login.string("userId") == "lena@example.com")
        #expect(harness.backend.heldLogins == 0)
        try await phone.value
        #expect(try await browser.poll().string("status") == "expired")
    }

    /// A web login whose access code comes from the authorize URL (the browser shows it as a QR
    /// code; the phone asks no authorization code): held like a QR login, and the browser's poll
    /// carries the redirect with the authorization code its app backend exchanges.
    @Test func authorizeURLWebLoginIsHeld() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await harness.stop() } }
        let client = try await harness.client(flavour: .mfaPlatform, clientID: "workbench")
        let registrationCode = try await client.getAccessCode(
            authorizationURL: harness.backend.authorizeURL(clientID: "workbench"))
        let user = try await harness.registeredUser(client, id: "olga@example.com", accessCode: registrationCode)

        let shown = try await harness.send(
            .post, String(harness.backend.authorizeURL(clientID: "workbench").dropFirst(harness.baseURL.count)),
            body: "{}")
        let qrURL = shown.string("qrURL")
        let accessCode = String(qrURL[qrURL.index(after: try #require(qrURL.lastIndex(of: "#")))...])
        let browser = BrowserPinPad(harness: harness, webOTT: shown.string("webOTT"))
        try await client.startAuthentication(user, accessCode: accessCode)
        let phone = Task { try await client.finishAuthentication(user, pin: "1234", accessCode: accessCode) }
        let held = try await browser.poll(until: "authenticate")
        #expect(harness.backend.heldLogins == 1)
        let redirect = held.string("redirectURL")
        #expect(redirect.hasPrefix("http://127.0.0.1/callback?code="))
        #expect(try await browser.logIn(authOTT: held.string("authOTT")).status == 200)
        try await phone.value
        let code = String(redirect.dropFirst("http://127.0.0.1/callback?code=".count).prefix { $0 != "&" })
        let exchanged = try await harness.send(.post, "/token", body: #"{"code":"\#(code)"}"#)
        #expect(exchanged.status == 200 && exchanged.string("userId") == "olga@example.com")
    }

    @Test func authorizationCodeLogin() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await harness.stop() } }
        let client = try await harness.client(flavour: .mfaPlatform, clientID: "workbench")
        let registrationCode = try await client.getAccessCode(
            authorizationURL: harness.backend.authorizeURL(clientID: "workbench"))
        let user = try await harness.registeredUser(client, id: "mike@example.com", accessCode: registrationCode)

        let accessCode = try await client.getAccessCode(
            authorizationURL: harness.backend.authorizeURL(clientID: "workbench"))
        #expect(accessCode.count == 32)
        try await client.startAuthentication(user, accessCode: accessCode)
        let code = try await client.finishAuthenticationAuthz(user, pin: "1234", accessCode: accessCode)
        #expect(code.count == 32)
        // The app backend exchanges it, once.
        let exchanged = try await harness.send(.post, "/token", body: #"{"code":"\#(code)"}"#)
        #expect(exchanged.status == 200 && exchanged.string("userId") == "mike@example.com")
        #expect(exchanged.string("clientId") == "workbench")
        #expect(try await harness.send(.post, "/token", body: #"{"code":"\#(code)"}"#).status == 400)

        // Wrong PINs: 401, 401, then 410 and BLOCKED, as on the platform.
        for attempt in 1...3 {
            let code = try await client.getAccessCode(
                authorizationURL: harness.backend.authorizeURL(clientID: "workbench"))
            try await client.startAuthentication(user, accessCode: code)
            let error = try await #require(throws: MPinError.self) {
                try await client.finishAuthenticationAuthz(user, pin: "0000", accessCode: code)
            }
            #expect(error.code == .incorrectPIN && error.context.httpStatus == (attempt < 3 ? 401 : 410))
        }
        #expect(user.state == .blocked)
    }

    @Test func unknownAccessCodeIs412() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await harness.stop() } }
        let client = try await harness.client(flavour: .mfaPlatform, clientID: "workbench")
        let code = try await client.getAccessCode(authorizationURL: harness.backend.authorizeURL(clientID: "workbench"))
        let user = try await harness.registeredUser(client, id: "nina", accessCode: code)
        try await client.startAuthentication(user)
        #expect(
            await MPinError.code { try await client.finishAuthentication(user, pin: "1234", accessCode: "1234") }
                == .incorrectAccessNumber)
    }
}
