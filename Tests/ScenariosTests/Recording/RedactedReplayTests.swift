import FlowRecording
import Foundation
import Scenarios
import TestSupport
import Testing

/// A cassette recorded with its PINs redacted keeps none of them, script included, and replays
/// when the values are supplied again.
@Suite struct RedactedReplayTests {
    @Test func redactedRecordingReplaysWithTheValues() async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let cassette = Redactor(fields: ["pin"]).redact(try await recordEmbedded(script))
        let text = cassette.canonicalText
        #expect(!text.contains("\"1234\"") && !text.contains("\"1111\""))
        #expect(cassette.redactions.map(\.placeholder) == ["pin", "pin_2"])
        let passed = await ScenarioSession.replay(cassette, path: "authenticate.json", placeholders: ["pin": "1234", "pin_2": "1111"],
                                                  library: RepoPaths.library)
        #expect(passed.passed, "\(passed)")
        let missing = await ScenarioSession.replay(cassette, path: "authenticate.json", placeholders: ["pin": "1234"],
                                                   library: RepoPaths.library)
        #expect(missing.failure?.contains("cannot start") == true && missing.failure?.contains("--secret pin_2=") == true)
        // A wrong value is a divergence (the PIN's crypto steps differ), not a pass.
        let wrong = await ScenarioSession.replay(cassette, path: "authenticate.json", placeholders: ["pin": "1234", "pin_2": "2222"],
                                                 library: RepoPaths.library)
        #expect(!wrong.passed)
    }
}
