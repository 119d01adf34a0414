import Foundation
import OrderedJSON
import Testing

@testable import MPinSDK

@Suite struct PlatformTests {
    let mfa = MPinClient.Options(flavour: .mfaPlatform, pinMapping: .integer)

    @Test func serviceDetails() async throws {
        let harness = Harness(
            [
                .get(
                    "https://dd.dev.mpin.io/service", 200,
                    "{\"name\":\"Secuclick [dev]\",\"url\":\"https://api.dev.miracl.net\",\"rps_prefix\":\"rps\",\"logo_url\":\"https://x/logo.png\",\"type\":\"online\"}"
                )
            ],
            options: mfa)
        try await harness.client.initialize(configuration: [:])
        let details = try await harness.client.getServiceDetails(url: "https://dd.dev.mpin.io/")
        #expect(
            details
                == ServiceDetails(
                    name: "Secuclick [dev]", backendURL: "https://api.dev.miracl.net", rpsPrefix: "rps",
                    logoURL: "https://x/logo.png"))
    }

    @Test(arguments: [
        (
            200, "{\"name\":\"n\",\"url\":\"u\",\"rps_prefix\":\"r\",\"logo_url\":\"l\",\"type\":\"offline\"}",
            StatusCode.responseParseError
        ),
        (200, "{\"name\":\"n\",\"url\":\"u\",\"rps_prefix\":\"r\",\"type\":\"online\"}", .responseParseError),
        (412, "", .badClientVersion), (403, "", .httpRequestError),
    ])
    func serviceDetailsErrors(http: Int, body: String, expected: StatusCode) async throws {
        let harness = Harness([.get("https://s.test/service", http, body)], options: mfa)
        try await harness.client.initialize(configuration: [:])
        let error = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.getServiceDetails(url: "https://s.test")
        }
        #expect(error?.code == expected)
    }

    /// docs/protocol.md §1: once a domain is trusted, other hosts and plain http fail without being sent.
    @Test func trustedDomains() async throws {
        let harness = Harness(
            [
                .get(
                    "https://api.dev.miracl.net/service", 200,
                    "{\"name\":\"n\",\"url\":\"u\",\"rps_prefix\":\"r\",\"logo_url\":\"l\",\"type\":\"online\"}")
            ],
            options: mfa)
        let client = harness.client
        try await client.initialize(configuration: [:])
        try await client.addTrustedDomain("miracl.net")
        for url in ["https://evil.test", "http://api.dev.miracl.net", "https://miracl.network.test", "not a url"] {
            let error = await mpinError { () async throws(MPinError) in _ = try await client.getServiceDetails(url: url)
            }
            #expect(error?.code == .untrustedDomainError, "\(url)")
        }
        #expect(harness.transport.requests.isEmpty)
        _ = try await client.getServiceDetails(url: "https://api.dev.miracl.net")
        #expect(harness.transport.requests.count == 1)
        // The host or a dot-separated suffix: a host that merely ends in the same letters is not in the domain.
        #expect(
            await client.untrustedReason("https://notmiracl.net/x")
                == "The host notmiracl.net is not in a trusted domain")
        #expect(await client.untrustedReason("https://eviltrusted.com/x") != nil)
        #expect(await client.untrustedReason("https://miracl.net/x") == nil)
        #expect(await client.untrustedReason("https://a.b.miracl.net./x") == nil)
        try await client.clearTrustedDomains()
        #expect(await client.untrustedReason("http://anything") == nil)
        try await client.addTrustedDomain("https://MPIN.io:443/path")
        #expect(await client.untrustedReason("https://dd.dev.mpin.io/rps") == nil)
        #expect(await client.untrustedReason("https://dd.dev.mpin.com/rps") != nil)
        try await client.addTrustedDomain(".trusted.com.")
        #expect(await client.untrustedReason("https://trusted.com/") == nil)
        #expect(await client.untrustedReason("https://eviltrusted.com/") != nil)
        let recorded = harness.log.events.compactMap { event -> ClientEvent.HTTPExchange? in
            if case .http(let exchange) = event { return exchange } else { return nil }
        }
        #expect(recorded.first?.error?.kind == .invalidRequest)
        #expect(recorded.first?.response == nil)
    }

    /// The MFA-platform core's plain suffix match, kept behind an explicit option.
    @Test func legacySuffixMatchingIsAnExplicitOption() async throws {
        var options = mfa
        options.trustedDomainMatching = .legacySuffix
        let client = Harness(options: options).client
        try await client.initialize(configuration: [:])
        try await client.addTrustedDomain("trusted.com")
        #expect(await client.untrustedReason("https://eviltrusted.com/x") == nil)
        #expect(await client.untrustedReason("https://api.trusted.com/x") == nil)
        #expect(await client.untrustedReason("https://trusted.com.evil/x") != nil)
        #expect(MPinClient.Options().trustedDomainMatching == .hostOrSubdomain)
    }

    @Test func sessionDetailsAndAbort() async throws {
        let harness = Harness(options: mfa)
        try await harness.client.initialize(configuration: [:])
        try await harness.client.setClientID("dd")
        harness.transport.add([
            .get(Canned.backend + "/rps/clientSettings", 200, Canned.settings(usePermits: false, codeStatus: true)),
            .post(
                Canned.backend + "/rps/codeStatus", 200,
                "{\"prerollId\":\"p@x\",\"appName\":\"TCB Demo\",\"appLogoURL\":\"\",\"customerId\":\"5c48\",\"customerName\":\"System\",\"customerLogoURL\":\"l\"}"
            ),
            .post(Canned.backend + "/rps/codeStatus", 200, "{\"status\":\"OK\",\"message\":\"\"}"),
        ])
        try await harness.client.setBackend(Canned.backend)
        let details = try await harness.client.getSessionDetails(accessCode: "ac1")
        #expect(
            details
                == SessionDetails(
                    prerollID: "p@x", appName: "TCB Demo", appIconURL: "", customerID: "5c48",
                    customerName: "System", customerIconURL: "l"))
        try await harness.client.abortSession(accessCode: "ac1")
        let requests = harness.transport.requests
        #expect(requests.allSatisfy { $0.headers["X-MIRACL-CID"] == "dd" })
        #expect(harness.bodies[1] == "{\n\t\"status\" : \"wid\",\n\t\"wid\" : \"ac1\"\n}")
        #expect(harness.bodies[2] == "{\n\t\"status\" : \"abort\",\n\t\"wid\" : \"ac1\"\n}")
    }

    @Test func noCodeStatusURLMeansNoRequest() async throws {
        let harness = Harness(options: mfa)
        try await harness.start()
        #expect(try await harness.client.getSessionDetails(accessCode: "x") == SessionDetails())
        try await harness.client.abortSession(accessCode: "x")
        #expect(harness.transport.requests.count == 1)
    }

    @Test(arguments: [
        ("{\"webOTT\":\"aa\",\"qrURL\":\"https://dd.dev.mpin.io#ad12b025\",\"accessURL\":\"x\"}", "ad12b025"),
        ("{\"qrURL\":\"https://h/#a#b\"}", "b"),
    ])
    func accessCode(body: String, code: String) async throws {
        let url = "https://app.test/authorize?client_id=c&redirect_uri=r&response_type=code&scope=openid+email&state=s"
        let harness = Harness([.post(url, 200, body)], options: mfa)
        try await harness.client.initialize(configuration: [:])
        #expect(try await harness.client.getAccessCode(authorizationURL: url) == code)
        #expect(harness.bodies == ["{}"])
    }

    @Test(arguments: ["{\"qrURL\":\"https://h/\"}", "{\"qrURL\":\"https://h/#\"}", "{}", "[]"])
    func accessCodeErrors(body: String) async throws {
        let harness = Harness([.post("https://app.test/a", 200, body)], options: mfa)
        try await harness.client.initialize(configuration: [:])
        let error = await mpinError { () async throws(MPinError) in
            _ = try await harness.client.getAccessCode(authorizationURL: "https://app.test/a")
        }
        #expect(error?.code == .responseParseError)
    }

    /// The MFA Platform Login flow (seed 002, docs/protocol.md §10): register with an access code, then
    /// authenticate with it (no time permits) and with an authorization code.
    @Test func platformLoginFlow() async throws {
        let harness = Harness(options: mfa)
        let client = harness.client
        try await client.initialize(configuration: [:])
        try await client.setClientID("dd")
        harness.transport.add([
            .get(Canned.backend + "/rps/clientSettings", 200, Canned.settings(usePermits: false, codeStatus: true)),
            Canned.register(extra: ", \"customerId\": \"c1\", \"appId\": \"a1\""), Canned.signature(),
            Canned.clientSecret(),
            .post(Canned.backend + "/rps/codeStatus", 500, ""), Canned.pass1(), Canned.pass2(),
            Canned.mobileAuthenticate(body: "{\"status\":200,\"message\":\"OK\",\"code\":\"\"}"),
            Canned.pass1(), Canned.pass2(),
            Canned.mobileAuthenticate(body: "{\"status\":200,\"message\":\"OK\",\"code\":\"authz-1\"}"),
        ])
        try await client.setBackend(Canned.backend)
        let user = try await client.makeNewUser(id: Canned.userID, deviceName: "SampleDevName")
        try await client.startRegistration(user, accessCode: "ac1", pushToken: "")
        #expect(user.customerID == "c1")
        #expect(user.appID == "a1")
        try await client.confirmRegistration(user)
        try await client.finishRegistration(user, pin: "1234", secondFactor: "77")
        try await client.startAuthentication(user, accessCode: "ac1")  // codeStatus 500 is ignored
        try await client.finishAuthentication(user, pin: "1234", secondFactor: "77", accessCode: "ac1")
        let code = try await client.finishAuthenticationAuthz(user, pin: "1234", secondFactor: "77", accessCode: "ac1")
        #expect(code == "authz-1")
        #expect(harness.transport.problems.isEmpty)
        #expect(harness.transport.remaining == 0)
        let bodies = harness.bodies
        #expect(bodies[4] == "{\n\t\"status\" : \"user\",\n\t\"wid\" : \"ac1\",\n\t\"userId\" : \"testUser\"\n}")
        #expect(try JSONParser.parse(bodies[5])["UT"]?.stringValue == "")
        #expect(try JSONParser.parse(bodies[6])["WID"]?.stringValue == "ac1")
        #expect(
            bodies[7]
                == "{\n\t\"mpinResponse\" : {\n\t\t\"authOTT\" : \"\(Canned.authOTT)\"\n\t},\n\t\"authzRequest\" : false\n}"
        )
        #expect(try JSONParser.parse(bodies[10])["authzRequest"] == .bool(true))
        #expect(harness.log.cryptoPrimitives.contains("extractFactor"))
        #expect(harness.log.cryptoPrimitives.filter { $0 == "restoreFactor" }.count == 2)
        // MFA flavour: all users are listed; a second registration of the same key is refused.
        #expect(try await client.listUsers().map(\.id) == [Canned.userID])
        harness.transport.add([Canned.register(extra: ", \"customerId\": \"c1\", \"appId\": \"a1\"")])
        let twin = try await client.makeNewUser(id: Canned.userID)
        let duplicate = await mpinError { () async throws(MPinError) in try await client.startRegistration(twin) }
        #expect(duplicate?.code == .flowError)
    }

    @Test(arguments: [(404, StatusCode.registrationExpired)])
    func registrationExpired(http: Int, expected: StatusCode) async throws {
        let harness = Harness(options: mfa)
        try await harness.start()
        harness.transport.add([Canned.register(status: http)])
        let user = try await harness.client.makeNewUser(id: Canned.userID)
        #expect(
            await mpinError { () async throws(MPinError) in try await harness.client.startRegistration(user) }?.code
                == expected)
        harness.transport.add([Canned.register(), Canned.signature(status: 404)])
        try await harness.client.startRegistration(user)
        #expect(
            await mpinError { () async throws(MPinError) in try await harness.client.confirmRegistration(user) }?.code
                == expected)
    }
}
