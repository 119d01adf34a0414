import CurlTransport
import FlowRecording
import Foundation
import MilagroRecording
import ReferenceBackend
import ScenarioTestSupport
import Scenarios
import Synchronization
import TestSupport
import Testing

/// `serve --cassette`: a recording answers a client that runs the same flow with its own
/// randomness (as an SDK of another platform would), over real HTTP and libcurl.
@Suite struct ServedCassetteTests {
    /// Serves `cassette` on a free port, runs `script` live against it, returns the summary.
    static func serveAndRun(_ cassette: Cassette, _ script: ScenarioScript, order: CassettePlayback.Order = .route)
        async throws -> (CassettePlayback.Summary, (any Error)?)
    {
        let holder = PlaybackHolder()
        let server = try await PlainHTTPServer.start { request in
            let answer = holder.playback!.answer(method: request.method, target: request.target, body: request.body)
            return .init(answer.response)
        }
        let playback = CassettePlayback(
            cassette: cassette, name: "served.json", order: order, servedOrigin: server.baseURL)
        holder.playback = playback
        let clock = FrozenClock(milliseconds: script.startTime)
        var failure: (any Error)?
        do {
            _ = try await ScenarioSession.run(
                script, backendURL: server.baseURL,
                transport: CurlTransport(options: .init(defaultTimeout: 20, connectTimeout: 5)),
                random: SeededRandomSource(seed: "another platform"), clock: clock,
                advanceClock: { clock.advance(milliseconds: $0) }, canWait: true)
        } catch {
            failure = error
        }
        await server.stop()
        return (playback.summary, failure)
    }

    @Test(arguments: ["authenticate.yaml", "access-number-logout.yaml", "mfa-qr-login.yaml"])
    func theRecordedFlowRunsAgainstItsCassette(_ name: String) async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/" + name)
        let cassette = try await recordEmbedded(script)
        let (summary, failure) = try await Self.serveAndRun(cassette, script)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
        #expect(summary.passed, "\(summary.text)")
        #expect(summary.served == summary.offered && summary.offered > 5)
    }

    @Test func anotherFlowAgainstTheCassetteIsReportedNotPassed() async throws {
        let recorded = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let other = try ScriptParser.parse(file: RepoPaths.scenarios + "/otp.yaml")
        let (summary, _) = try await Self.serveAndRun(try await recordEmbedded(recorded), other)
        #expect(!summary.passed)
        #expect(!summary.misses.isEmpty || !summary.unserved.isEmpty)
    }
}

/// The playback, set once the server's port is known.
private final class PlaybackHolder: Sendable {
    private let stored = Mutex<CassettePlayback?>(nil)
    var playback: CassettePlayback? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
