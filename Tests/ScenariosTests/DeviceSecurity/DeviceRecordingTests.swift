import CurlTransport
import FlowRecording
import Foundation
import ReferenceBackend
import Scenarios
import Testing

/// Recording a DeviceSecurity scenario again against the embedded backend (its seed, a frozen
/// clock, the stable origin) gives the committed cassette byte for byte, so the cassettes are what
/// the code does today. `ds-network-error` is left out: its transport errors quote libcurl's
/// elapsed milliseconds.
@Suite(.serialized) struct DeviceRecordingTests {
    static let stableOrigin = "http://127.0.0.1:8005"

    static let names = DeviceScenarioTests.scripts
        .map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
        .filter { $0 != "ds-network-error" }

    private struct FrozenBackendTime: BackendClock {
        let clock: FrozenClock
        func nowMilliseconds() -> Int64 { clock.nowMilliseconds() }
    }

    static func record(_ name: String) async throws -> Cassette {
        var script = try ScriptParser.parse(file: DeviceScenarioTests.root + "/Scenarios/devicesecurity/\(name).yaml")
        script.path = "Scenarios/devicesecurity/\(name).yaml"
        let seed = script.seed ?? "workbench"
        let clock = FrozenClock(milliseconds: script.startTime)
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: seed), clock: FrozenBackendTime(clock: clock))
        let transport = StableOriginTransport(base: CurlTransport(options: .init(defaultTimeout: 60, connectTimeout: 10)),
                                              stableOrigin: stableOrigin, actualOrigin: backend.baseURL, clock: clock)
        let header = ScenarioSession.header(for: script, backendURL: stableOrigin, embedded: true, seed: seed,
                                            tool: .init(name: "mpin-workbench", version: "0.1.0"))
        do {
            let cassette = try await ScenarioSession.record(script, header: header, transport: transport, random: SeededRandomSource(seed: seed),
                                                            clock: clock, advanceClock: { clock.advance(milliseconds: $0) }, canWait: true,
                                                            recordsTimings: false)
            await backend.stop()
            return cassette
        } catch {
            await backend.stop()
            throw error
        }
    }

    @Test(arguments: DeviceRecordingTests.names)
    func reRecordingGivesTheCommittedBytes(name: String) async throws {
        let cassette = try await Self.record(name)
        let committed = try CassetteFile.readBytes(DeviceScenarioTests.root + "/Recordings/\(name).json")
        #expect(cassette.canonicalBytes == committed,
                "Recordings/\(name).json is stale: mpin-workbench record Scenarios/devicesecurity/\(name).yaml")
    }
}
