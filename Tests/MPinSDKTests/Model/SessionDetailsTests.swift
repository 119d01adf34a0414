import MPinSDK
import Testing

/// `getSessionDetails` reads both spellings of the session details (docs/protocol.md §3.7): the MFA
/// platform's `prerollId`, `appName`, `appLogoURL` and the open-source RPS's `PrerollId`,
/// `AppName`, `AppLogoUrl`.
@Suite struct SessionDetailsTests {
    func details(_ answer: String) async throws -> SessionDetails {
        let harness = Harness(options: MPinClient.Options(flavour: .mfaPlatform, pinMapping: .integer))
        try await harness.client.initialize(configuration: [:])
        try await harness.client.setClientID("dd")
        harness.transport.add([
            .get(Canned.backend + "/rps/clientSettings", 200, Canned.settings(usePermits: false, codeStatus: true)),
            .post(Canned.backend + "/rps/codeStatus", 200, answer),
        ])
        try await harness.client.setBackend(Canned.backend)
        let details = try await harness.client.getSessionDetails(accessCode: "ac1")
        #expect(harness.transport.problems.isEmpty)
        return details
    }

    @Test func openSourceServerCapitalisation() async throws {
        let details = try await details(
            #"{"PrerollId":"p@x","AppName":"Milagro Demo","AppLogoUrl":"https://logo.test/a.png"}"#)
        #expect(
            details
                == SessionDetails(
                    prerollID: "p@x", appName: "Milagro Demo", appIconURL: "https://logo.test/a.png",
                    customerID: "", customerName: "", customerIconURL: ""))
    }

    @Test func platformSpellingWinsWhenBothAreSent() async throws {
        let details = try await details(
            #"{"PrerollId":"old","prerollId":"new","AppName":"Old","appName":"New","appLogoURL":"u"}"#)
        #expect(details.prerollID == "new" && details.appName == "New" && details.appIconURL == "u")
    }
}
