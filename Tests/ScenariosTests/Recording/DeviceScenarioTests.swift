import FlowRecording
import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// The DeviceSecurity cassettes (`Recordings/ds-*.json`) replay strictly (every request,
/// random draw, clock read and call result as recorded), and the device scenarios parse.
@Suite struct DeviceScenarioTests {
    static func files(_ folder: String, prefix: String = "", _ suffix: String) -> [String] {
        let directory = RepoPaths.path(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted().map { directory + "/" + $0 }
    }

    static let cassettes = files("Recordings", prefix: "ds-", ".json")
    static let scripts = files("Scenarios/devicesecurity", ".yaml")

    @Test func everyScenarioHasACassette() {
        #expect(Self.scripts.count >= 8)
        let recorded = Set(
            Self.cassettes.map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "") })
        for script in Self.scripts {
            let name = ((script as NSString).lastPathComponent as NSString).deletingPathExtension
            #expect(recorded.contains(name), "no cassette for \(name)")
        }
    }

    @Test(arguments: DeviceScenarioTests.scripts)
    func scriptsParse(path: String) throws {
        let script = try ScriptParser.parse(file: path)
        #expect(script.steps.contains { $0.actor == "device" })
    }

    @Test(arguments: DeviceScenarioTests.cassettes)
    func cassettesReplayStrictly(path: String) async {
        let outcome = await ScenarioSession.replay(file: path, library: RepoPaths.library)
        #expect(outcome.passed, "\(outcome)")
        #expect(outcome.events > 0)
    }

    @Test func aChangedResultIsADivergence() async throws {
        let path = try #require(Self.cassettes.first { $0.hasSuffix("ds-offline-application-borrow-time.json") })
        var cassette = try CassetteFile.read(path)
        let index = try #require(
            cassette.events.lastIndex { event in
                if case .call(let call) = event.payload, call.name == "doLogin" { return true }
                return false
            })
        guard case .call(var call) = cassette.events[index].payload else { return }
        call.status = .init(code: "ApplicationBorrowTimeExpired|NetworkError", message: call.status.message)
        cassette.events[index].payload = .call(call)
        let outcome = await ScenarioSession.replay(cassette, path: path, library: RepoPaths.library)
        #expect(!outcome.passed)
    }
}
