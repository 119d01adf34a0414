import FlowRecording
import Foundation
import ReferenceBackend
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// The scenarios that do what the C++ SDK core's `tests/unit_tests.cpp` does, call for call, run
/// (recorded live, no replay) against the reference backend's `milagro-hosted-v3` profile: the
/// answers of the backend that suite was recorded against.
@Suite struct HostedV3ProfileTests {
    static let suite = [
        "testNoInit", "testInit", "testBackend", "setBackend", "testUsers1", "testUsers2", "testUsers3", "testUsers4",
        "testUsers5",
        "testRegister1", "testRegister2", "testRegister3", "testRegister4", "testAuthenticate1", "testAuthenticate2",
        "testAuthenticateOTP", "testAuthenticateAN1", "testAuthenticateAN2",
    ]

    @Test(arguments: suite)
    func runsAgainstTheRecordedBackendsProfile(_ name: String) async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/milagro-sdk/\(name).yaml")
        let cassette = try await recordEmbedded(script, profile: .milagroHostedV3)
        #expect(!cassette.events.isEmpty)
    }

    @Test func theProfileIsAScriptKey() throws {
        let script = try ScriptParser.parse("profile: milagro-hosted-v3\nsteps: []\n", file: "hosted.yaml")
        #expect(script.profile == .milagroHostedV3)
        for combination in ["flavour: mfa-platform", "activation: code"] {
            #expect(throws: ScriptError.self, "\(combination)") {
                try ScriptParser.parse("profile: milagro-hosted-v3\n\(combination)\nsteps: []\n", file: "bad.yaml")
            }
        }
    }
}
