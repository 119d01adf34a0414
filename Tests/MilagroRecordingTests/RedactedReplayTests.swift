import FlowRecording
import Foundation
import MilagroRecording
import OrderedJSON
import ScenarioTestSupport
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
        let passed = await ScenarioSession.replay(
            cassette, path: "authenticate.json", placeholders: ["pin": "1234", "pin_2": "1111"],
            library: RepoPaths.library)
        #expect(passed.passed, "\(passed)")
        let missing = await ScenarioSession.replay(
            cassette, path: "authenticate.json", placeholders: ["pin": "1234"],
            library: RepoPaths.library)
        #expect(
            missing.failure?.contains("cannot start") == true && missing.failure?.contains("--secret pin_2=") == true)
        // A wrong value is a divergence (the PIN's crypto steps differ), not a pass.
        let wrong = await ScenarioSession.replay(
            cassette, path: "authenticate.json", placeholders: ["pin": "1234", "pin_2": "2222"],
            library: RepoPaths.library)
        #expect(!wrong.passed)
    }
}

/// A cassette under the default redaction replays without any secret, on stand-ins: the flow is
/// checked, the crypto checks that need a secret are listed as not made, and it is never a pass;
/// with every secret it is a full crypto replay again.
@Suite struct RedactedReplayWithoutSecretsTests {
    /// The value of each placeholder, read from the plain recording at the same place.
    static func secrets(plain: Cassette, redacted: Cassette) -> [String: String] {
        var out: [String: String] = [:]
        for (clear, hidden) in zip(MilagroAudit.fields(plain), MilagroAudit.fields(redacted)) {
            if let name = Placeholder.whole(hidden.value) { out[name] = clear.value }
        }
        if let name = redacted.scenario.seed.flatMap(Placeholder.whole) { out[name] = plain.scenario.seed }
        if let clear = plain.scenario.script, let hidden = redacted.scenario.script {
            func walk(_ a: JSONValue, _ b: JSONValue) {
                switch (a, b) {
                case (.string(let x), .string(let y)), (.number(let x), .string(let y)):
                    if let name = Placeholder.whole(y) { out[name] = x }
                case (.array(let xs), .array(let ys)): for (x, y) in zip(xs, ys) { walk(x, y) }
                case (.object(let xs), .object(let ys)): for (x, y) in zip(xs, ys) { walk(x.value, y.value) }
                default: break
                }
            }
            walk(clear, hidden)
        }
        return out
    }

    @Test(arguments: RedactionLeakTests.scenarios) func replaysOnStandInsAndNeverPasses(_ name: String) async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/\(name).yaml")
        let plain = try await recordEmbedded(script, seed: "standin")
        let redacted = Redactor(fields: Redactor.milagroFields).redact(plain)
        let flow = await ScenarioSession.replay(redacted, path: "\(name).json", library: RepoPaths.library)
        #expect(flow.failure == nil, "\(flow)")
        #expect(flow.isPartial && !flow.passed)
        #expect(flow.unchecked.contains { $0.contains("crypto step client2 not checked") }, "\(flow.unchecked)")
        #expect(flow.description.contains("not a full pass"))
        let values = Self.secrets(plain: plain, redacted: redacted)
        #expect(Set(values.keys) == Set(redacted.redactions.map(\.placeholder)))
        let full = await ScenarioSession.replay(
            redacted, path: "\(name).json", placeholders: values, library: RepoPaths.library)
        #expect(full.passed, "\(full)")
    }

    @Test func aValueGivenForTheWrongPlaceholderIsNamed() async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let cassette = Redactor(fields: ["pin"]).redact(try await recordEmbedded(script))
        let swapped = await ScenarioSession.replay(
            cassette, path: "authenticate.json", placeholders: ["pin": "1111", "pin_2": "1234"],
            library: RepoPaths.library)
        #expect(swapped.failure?.contains("held {{pin}}") == true, "\(swapped)")
    }
}
