import CurlTransport
import EmbeddedBackend
import FlowRecording
import Foundation
import MPinSDK
import MilagroRecording
import ReferenceBackend
import Scenarios
import TestSupport
import Testing

/// The scenario library and the cassettes of the repository.
extension RepoPaths {
    package static var library: ScenarioLibrary { ScenarioLibrary(directory: scenarios) }

    /// Every cassette in Recordings/, sorted.
    package static func recordingFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordings)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// The test helper: one call replays one cassette and records the divergence report as the
/// test's issue when it fails.
@discardableResult
package func expectReplay(
    _ path: String, mode: ReplayMode? = nil, placeholders: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ReplayOutcome {
    let outcome = await ScenarioSession.replay(
        file: path, mode: mode, placeholders: placeholders, library: RepoPaths.library)
    if let failure = outcome.failure { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    return outcome
}

/// Records a script against a reference backend started in-process (seeded, frozen clock, shown
/// as http://127.0.0.1:8005), as `mpin-workbench record --embedded` does.
package func recordEmbedded(_ script: ScenarioScript, seed: String = "workbench", profile: BackendProfile? = nil)
    async throws -> Cassette
{
    let clock = FrozenClock(milliseconds: script.startTime)
    var configuration = BackendConfiguration(flavour: script.flavour, activation: script.activation, seed: seed)
    configuration.clientID = script.clientID
    configuration.profile = profile ?? script.profile
    // The scenarios' `admin:` steps (revoke, restore, mailbox) need the operator endpoints, at
    // /admin/* in every profile (`serve` keeps them off the milagro-oss and milagro-hosted-v3 paths).
    configuration.operatorPrefix = ""
    let backend = try await ReferenceBackend.start(configuration, clock: TestBackendClock(clock: clock))
    let transport = StableOriginTransport(
        base: CurlTransport(options: .init(defaultTimeout: 60, connectTimeout: 10)),
        stableOrigin: "http://127.0.0.1:8005", actualOrigin: backend.baseURL, clock: clock)
    let header = ScenarioSession.header(
        for: script, backendURL: "http://127.0.0.1:8005", embedded: true, seed: seed,
        tool: .init(name: "mpin-workbench", version: "0.1.0"))
    do {
        let cassette = try await ScenarioSession.record(
            script, header: header, transport: transport, random: SeededRandomSource(seed: seed),
            clock: clock, advanceClock: { clock.advance(milliseconds: $0) }, canWait: true,
            recordsTimings: false, heldRequests: { backend.heldLogins })
        await backend.stop()
        return cassette
    } catch {
        await backend.stop()
        throw error
    }
}

package struct TestBackendClock: BackendClock {
    package init(clock: FrozenClock) { self.clock = clock }
    package let clock: FrozenClock
    package func nowMilliseconds() -> Int64 { clock.nowMilliseconds() }
}

/// Records a script against a reference backend on loopback that is not the embedded one: its
/// own randomness the system's (no seed), the real clock, the SDK drawing from `random`, the
/// cassette naming `seed` (nil: none), as `mpin-workbench record --backend URL` does.
package func recordLive(_ script: ScenarioScript, random: any RandomSource, seed: String?) async throws -> Cassette {
    var configuration = BackendConfiguration(flavour: script.flavour, activation: script.activation)
    configuration.clientID = script.clientID
    configuration.profile = script.profile
    // The scenarios' `admin:` steps (revoke, restore, mailbox) need the operator endpoints, at
    // /admin/* in every profile (`serve` keeps them off the milagro-oss and milagro-hosted-v3 paths).
    configuration.operatorPrefix = ""
    let backend = try await ReferenceBackend.start(configuration)
    let header = ScenarioSession.header(
        for: script, backendURL: backend.baseURL, embedded: false, seed: seed,
        tool: .init(name: "mpin-workbench", version: "0.1.0"))
    do {
        let cassette = try await ScenarioSession.record(
            script, header: header,
            transport: CurlTransport(options: .init(defaultTimeout: 60, connectTimeout: 10)),
            random: random, clock: SystemClock())
        await backend.stop()
        return cassette
    } catch {
        await backend.stop()
        throw error
    }
}

/// Records the scenario of the committed cassette at `path` again with the built `mpin-workbench
/// record --embedded` (its seed), and expects the committed bytes.
///
/// The recording runs in a process of its own: in the test process, a machine busy with the
/// whole suite can hold the in-process backend's tasks behind other tests' work for seconds, past
/// the DeviceSecurity connector's 2 s request limit, and a timeout was then recorded (CI saw such a
/// stale-looking cassette). A child process has its own threads; only the machine's load is shared.
package func expectReRecording(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let committed = try CassetteFile.read(path)
    guard let script = committed.scenario.path else {
        Issue.record("\(path) names no scenario file", sourceLocation: sourceLocation)
        return
    }
    let folder = try TemporaryDirectory.make("rerecord")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = folder + "/" + (path as NSString).lastPathComponent
    var arguments = ["record", script, "--embedded", "--out", out]
    if let seed = committed.scenario.seed { arguments += ["--seed", seed] }
    let run = try await WorkbenchProcess.runWaitingElsewhere(arguments, seconds: 600)
    let name = (path as NSString).lastPathComponent
    guard run.status == 0 else {
        Issue.record("mpin-workbench \(arguments.joined(separator: " ")): \(run)", sourceLocation: sourceLocation)
        return
    }
    #expect(
        try CassetteFile.readBytes(out) == (try CassetteFile.readBytes(path)),
        "Recordings/\(name) is stale: mpin-workbench record \(script) --embedded --out Recordings/\(name)",
        sourceLocation: sourceLocation)
}
