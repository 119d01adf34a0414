import FlowRecording
import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Recording the same scenario twice against the embedded backend with the same seed gives the
/// same bytes; the recording then replays.
@Suite struct DeterminismTests {
    @Test(arguments: ["access-number-logout.yaml", "mfa-qr-login.yaml", "register-email.yaml"])
    func sameSeedSameBytes(_ name: String) async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/" + name)
        let first = try await recordEmbedded(script, seed: "determinism")
        let second = try await recordEmbedded(script, seed: "determinism")
        #expect(first.canonicalBytes == second.canonicalBytes)
        let other = try await recordEmbedded(script, seed: "another")
        #expect(first.canonicalBytes != other.canonicalBytes)
        let outcome = await ScenarioSession.replay(first, path: name, library: RepoPaths.library)
        #expect(outcome.passed, "\(outcome)")
    }

    @Test func scenarioFailureNamesFileLineAndStep() async throws {
        var script = try ScriptParser.parse(
            """
            name: wrong-expectation
            steps:
              - sdk: initialize
                with: {backend: $backend}
              - sdk: makeNewUser
                with: {id: alice}
              - name: start
                sdk: startRegistration
                expect: {state: REGISTERED}
            """, file: "Scenarios/wrong-expectation.yaml")
        script.path = "Scenarios/wrong-expectation.yaml"
        do {
            _ = try await recordEmbedded(script)
            Issue.record("the scenario passed")
        } catch let failure as ScenarioFailure {
            #expect(
                failure.description
                    == "Scenarios/wrong-expectation.yaml:9: step 2 \"start\": expected the user in state REGISTERED, it is ACTIVATED"
            )
        }
    }
}
