import FlowRecording
import Foundation
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
        let byFile = try ScenarioCommandSupport.script(RepoPaths.scenarios + "/authenticate.yaml", library: Self.library)
        #expect(byName.name == "authenticate" && byName.steps.count == byFile.steps.count)
        #expect(byName.path?.hasSuffix("/authenticate.yaml") == true)
    }

    @Test func anUnknownNameGetsDidYouMean() {
        do {
            _ = try ScenarioCommandSupport.script("authentcate", library: Self.library)
            Issue.record("an unknown name was accepted")
        } catch {
            #expect(error.description.contains("no such scenario file, nor a bundled scenario of that name"), "\(error)")
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
            #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(default: the script's seed, else \"workbench\""))
        }
        #expect(ProxyCommand.helpMessage().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .contains("else \"workbench\""))
    }

    @Test("record, run and proxy find a bundled scenario by name")
    func executableFindsByName() throws {
        let directory = try TemporaryDirectory.make("by-name")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = try WorkbenchProcess.run(["record", "authenticate", "--out", directory + "/a.json"], seconds: 120)
        #expect(recorded.status == 0, "\(recorded)")
        #expect(FileManager.default.contents(atPath: directory + "/a.json") == FileManager.default.contents(atPath: RepoPaths.path("Recordings/authenticate.json")),
                "recording by name writes the bytes recording the file does")
        let misspelt = try WorkbenchProcess.run(["run", "authentcate"], seconds: 60)
        #expect(misspelt.status == 2, "\(misspelt)")
        #expect(misspelt.stderr.contains("did you mean authenticate?"), "\(misspelt.stderr)")
    }

    @Test func aDivergenceOnARandomDrawHintsAtTheSeed() {
        let seeded = Cassette(tool: .init(name: "t", version: "1"), curve: "BN254CX", scenario: .init(name: "s", seed: "abc"),
                              backend: .init(url: "http://127.0.0.1:1", flavour: "milagro"))
        let random = ReplayCommand.seedHint(kind: "randomMismatch", cassette: seeded)
        #expect(random?.contains("a random draw diverged: the cassette was recorded with --seed abc") == true, "\(random ?? "nil")")
        var unseeded = seeded
        unseeded.scenario.seed = nil
        #expect(ReplayCommand.seedHint(kind: "randomMismatch", cassette: unseeded)?.contains("recorded without a seed") == true)
        #expect(ReplayCommand.seedHint(kind: "requestMismatch", cassette: unseeded)?.contains("no random draws and no seed") == true)
        #expect(ReplayCommand.seedHint(kind: "requestMismatch", cassette: seeded) == nil)
        #expect(ReplayCommand.seedHint(kind: "expectation", cassette: unseeded) == nil)
    }
}
