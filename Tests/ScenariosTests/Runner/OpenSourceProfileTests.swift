import FlowRecording
import Foundation
import ReferenceBackend
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// The bundled scenarios that apply to the open-source Milagro server run against the reference
/// backend's `milagro-oss` profile (its answers as measured, docs/protocol.md §13); the ones that do
/// not apply fail where the open-source server differs, for the reason given.
@Suite struct OpenSourceProfileTests {
    /// Milagro-flavour scenarios whose every step the open-source server answers the same way.
    static let applying = [
        "register-auto.yaml", "authenticate.yaml", "wrong-pin-blocked.yaml", "revoked.yaml",
        "access-number-tampered.yaml",
        "milagro-sdk/testNoInit.yaml", "milagro-sdk/testInit.yaml", "milagro-sdk/testBackend.yaml",
        "milagro-sdk/setBackend.yaml",
        "milagro-sdk/testUsers1.yaml", "milagro-sdk/testUsers2.yaml", "milagro-sdk/testUsers3.yaml",
        "milagro-sdk/testUsers4.yaml",
        "milagro-sdk/testUsers5.yaml", "milagro-sdk/testRegister1.yaml", "milagro-sdk/testRegister2.yaml",
        "milagro-sdk/testRegister3.yaml", "milagro-sdk/testRegister4.yaml", "milagro-sdk/testAuthenticate1.yaml",
        "milagro-sdk/testAuthenticate2.yaml", "milagro-sdk/testAuthenticateOTP.yaml",
        "milagro-sdk/testAuthenticateAN1.yaml",
        "milagro-sdk/testAuthenticateAN2.yaml",
    ]

    @Test(arguments: applying)
    func runsAgainstTheOpenSourceProfile(_ name: String) async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/" + name)
        let cassette = try await recordEmbedded(script, profile: .milagroOSS)
        #expect(!cassette.events.isEmpty)
    }

    /// Where the default profile differs on purpose, a scenario written for it fails on the
    /// open-source server's answer.
    @Test(arguments: [
        ("otp.yaml", "got \"RESPONSE_PARSE_ERROR\""),
        // The poll shows the user only after codeStatus "user" (servers/rps/mobile_flow.py).
        ("access-number-logout.yaml", "expected userId = \"grace\", got \"\""),
        // The session item lives 305 s (accessNumberExtendValiditySeconds): at 301 s the login is held, then times out.
        ("access-number-expired.yaml", "expected status INCORRECT_ACCESS_NUMBER, got REQUEST_EXPIRED"),
        // After a held login times out the session still shows "authenticate" (its status stays 200).
        ("access-number-no-browser.yaml", "expected status = \"expired\", got \"authenticate\""),
        ("register-email.yaml", "expected the user in state STARTED_REGISTRATION, it is ACTIVATED"),
    ])
    func aScenarioOfTheDefaultProfileFailsWhereTheServerDiffers(_ name: String, _ message: String) async throws {
        var script = try ScriptParser.parse(file: RepoPaths.scenarios + "/" + name)
        // register-email: the open-source demo RPA activates at once (forceActivate).
        if script.activation == .email { script.activation = .auto }
        do {
            _ = try await recordEmbedded(script, profile: .milagroOSS)
            Issue.record("\(name) passed against the open-source profile")
        } catch let failure as ScenarioFailure {
            #expect(failure.description.contains(message), "\(failure)")
        }
    }

    @Test func theProfileIsAScriptKey() throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/milagro-sdk/testAuthenticateOTP.yaml")
        #expect(script.profile == .milagroOSS)
        #expect(throws: ScriptError.self) { try ScriptParser.parse("profile: python2\nsteps: []\n", file: "bad.yaml") }
        #expect(throws: ScriptError.self) {
            try ScriptParser.parse("profile: milagro-oss\nflavour: mfa-platform\nsteps: []\n", file: "bad.yaml")
        }
    }
}
