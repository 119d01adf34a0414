import FlowRecording
import Foundation
import MilagroRecording
import ReferenceBackend
import SDKSeams
import Scenarios
import TestSupport
import Testing

@testable import WorkbenchCLI

/// Scenarios by file or bundled name in every command that takes one, "did you mean" for an
/// unknown name, and the one seed rule of `record`, `run` and `proxy`.
@Suite struct ScenarioCommandSupportTests {
    static let library = ScenarioLibrary(directory: RepoPaths.scenarios)

    @Test func aBundledScenarioIsFoundByName() throws {
        let byName = try ScenarioCommandSupport.script("authenticate", library: Self.library)
        let byFile = try ScenarioCommandSupport.script(
            RepoPaths.scenarios + "/authenticate.yaml", library: Self.library)
        #expect(byName.name == "authenticate" && byName.steps.count == byFile.steps.count)
        #expect(byName.path?.hasSuffix("/authenticate.yaml") == true)
    }

    @Test func anUnknownNameGetsDidYouMean() {
        do {
            _ = try ScenarioCommandSupport.script("authentcate", library: Self.library)
            Issue.record("an unknown name was accepted")
        } catch {
            #expect(
                error.description.contains("no such scenario file, nor a bundled scenario of that name"), "\(error)")
            #expect(error.description.hasSuffix("did you mean authenticate?"), "\(error)")
        }
        do {
            _ = try ScenarioCommandSupport.script("zzzzzzzzzzzzzzzz", library: Self.library)
            Issue.record("an unknown name was accepted")
        } catch {
            #expect(!error.description.contains("did you mean"), "\(error)")
        }
    }

    @Test func theSeedRuleIsOneRule() throws {
        var script = try ScenarioCommandSupport.script("authenticate", library: Self.library)
        script.seed = nil
        #expect(ScenarioCommandSupport.seed(nil, script: script) == "workbench")
        #expect(ScenarioCommandSupport.seed("given", script: script) == "given")
        script.seed = "scripted"
        #expect(ScenarioCommandSupport.seed(nil, script: script) == "scripted")
        #expect(ScenarioCommandSupport.seed("given", script: script) == "given")
        // Each command's help states it.
        for help in [RecordCommand.helpMessage(), RunCommand.helpMessage()] {
            #expect(
                help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                    "(default: the script's seed, else \"workbench\""))
        }
        #expect(
            ProxyCommand.helpMessage().split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .contains("else \"workbench\""))
    }

    /// The SDK's randomness: the seed's on the embedded backend; against a live one the system's
    /// generator, unless --seed is given, which warns; the script's seed never drives a live run.
    @Test func aLiveBackendGetsTheSystemsGenerator() throws {
        var script = try ScenarioCommandSupport.script("authenticate", library: Self.library)
        script.seed = "scripted"
        let embedded = ScenarioCommandSupport.randomness(nil, script: script, live: nil)
        #expect(embedded.seed == "scripted" && embedded.warning == nil && embedded.random is SeededRandomSource)
        let live = ScenarioCommandSupport.randomness(nil, script: script, live: "http://127.0.0.1:8005")
        #expect(live.seed == nil && live.warning == nil && live.random is SystemRandomSource)
        let given = ScenarioCommandSupport.randomness("s1", script: script, live: "http://127.0.0.1:8005")
        #expect(given.seed == "s1" && given.random is SeededRandomSource)
        #expect(given.warning?.contains("client secret") == true && given.warning?.contains("--seed s1") == true)
    }

    /// Two recordings against a live backend (the reference backend on loopback, not embedded)
    /// without --seed share no draw, name no seed, and each replays offline from its recorded draws.
    @Test func twoLiveRecordingsShareNoDraw() async throws {
        let script = try ScenarioCommandSupport.script("authenticate", library: Self.library)
        var configuration = BackendConfiguration(flavour: script.flavour, activation: script.activation)
        configuration.profile = script.profile
        let backend = try await ReferenceBackend.start(configuration)
        var draws: [Set<String>] = []
        do {
            for _ in 0..<2 {
                let randomness = ScenarioCommandSupport.randomness(nil, script: script, live: backend.baseURL)
                let (cassette, _) = try await RecordCommand.record(
                    script, seed: randomness.seed, random: randomness.random,
                    backendURL: backend.baseURL)
                #expect(cassette.scenario.seed == nil)
                draws.append(
                    Set(
                        cassette.events.compactMap { event -> String? in
                            if case .random(let draw) = event.payload { return draw.hex }
                            return nil
                        }))
                let replayed = await ScenarioSession.replay(cassette, path: nil, library: Self.library)
                #expect(replayed.passed, "\(replayed)")
            }
        } catch {
            await backend.stop()
            throw error
        }
        await backend.stop()
        #expect(draws[0].count >= 8 && draws[1].count >= 8)
        #expect(draws[0].isDisjoint(with: draws[1]))
    }

    /// A host that only starts with `127.` is not loopback: its recording is redacted by default.
    @Test func aHostNamed127EvilIsRedactedByDefault() {
        #expect(Redactor.milagroFields(for: [], live: "http://127.evil.example:8005") == Redactor.milagroFields)
        #expect(Redactor.milagroFields(for: [], live: "http://127.0.0.1:8005").isEmpty)
        #expect(Redactor.milagroFields(for: [], live: "http://[::1]:8005").isEmpty)
    }

    @Test("record, run and proxy find a bundled scenario by name")
    func executableFindsByName() throws {
        let directory = try TemporaryDirectory.make("by-name")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = try WorkbenchProcess.run(
            ["record", "authenticate", "--out", directory + "/a.json"], seconds: 120)
        #expect(recorded.status == 0, "\(recorded)")
        #expect(
            FileManager.default.contents(atPath: directory + "/a.json")
                == FileManager.default.contents(atPath: RepoPaths.path("Recordings/authenticate.json")),
            "recording by name writes the bytes recording the file does")
        let misspelt = try WorkbenchProcess.run(["run", "authentcate"], seconds: 60)
        #expect(misspelt.status == 2, "\(misspelt)")
        #expect(misspelt.stderr.contains("did you mean authenticate?"), "\(misspelt.stderr)")
    }

    @Test func aDivergenceOnARandomDrawHintsAtTheSeed() {
        let seeded = Cassette(
            tool: .init(name: "t", version: "1"), curve: "BN254CX", scenario: .init(name: "s", seed: "abc"),
            backend: .init(url: "http://127.0.0.1:1", flavour: "milagro"))
        let random = ReplayCommand.seedHint(kind: "randomMismatch", cassette: seeded)
        #expect(
            random?.contains("a random draw diverged: the cassette was recorded with --seed abc") == true,
            "\(random ?? "nil")")
        var unseeded = seeded
        unseeded.scenario.seed = nil
        #expect(
            ReplayCommand.seedHint(kind: "randomMismatch", cassette: unseeded)?.contains("recorded without a seed")
                == true)
        #expect(
            ReplayCommand.seedHint(kind: "requestMismatch", cassette: unseeded)?.contains("no random draws and no seed")
                == true)
        #expect(ReplayCommand.seedHint(kind: "requestMismatch", cassette: seeded) == nil)
        #expect(ReplayCommand.seedHint(kind: "expectation", cassette: unseeded) == nil)
    }
}
