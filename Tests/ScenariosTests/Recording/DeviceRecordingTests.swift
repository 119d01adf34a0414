import CurlTransport
import FlowRecording
import Foundation
import ReferenceBackend
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Recording a DeviceSecurity scenario again against the embedded backend (its seed, a frozen
/// clock, the stable origin) gives the committed cassette byte for byte, so the cassettes are what
/// the code does today. `ds-network-error` is included: a timeout is stated by its limit, not by
/// the measured time.
@Suite(.serialized) struct DeviceRecordingTests {
    static let names = DeviceScenarioTests.scripts
        .map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }

    static func record(_ name: String) async throws -> Cassette {
        var script = try ScriptParser.parse(file: RepoPaths.path("Scenarios/devicesecurity/\(name).yaml"))
        script.path = "Scenarios/devicesecurity/\(name).yaml"
        return try await recordEmbedded(script, seed: script.seed ?? "workbench")
    }

    @Test(arguments: DeviceRecordingTests.names)
    func reRecordingGivesTheCommittedBytes(name: String) async throws {
        let cassette = try await Self.record(name)
        let committed = try CassetteFile.readBytes(RepoPaths.path("Recordings/\(name).json"))
        #expect(
            cassette.canonicalBytes == committed,
            "Recordings/\(name).json is stale: mpin-workbench record Scenarios/devicesecurity/\(name).yaml")
    }
}
