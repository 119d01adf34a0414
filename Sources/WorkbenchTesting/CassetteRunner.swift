import CurlTransport
import FileAccess
import FlowRecording
import Foundation
import MPinSDK
import MilagroProtocol
import MilagroRecording
import SDKSeams
import Scenarios

/// Runs one cassette test: decides between replay and record, builds the session's seams from
/// the pieces `mpin-workbench record` and `replay` use (FlowRecording's `Recorder` and `Replayer`,
/// Scenarios' `CassetteObserver`, `SeededRandomSource`, `FrozenClock`, `CurlTransport`, and the
/// embedded `ReferenceBackend`, started by `WorkbenchTestingEmbedded`'s `EmbeddedBackendStarter`),
/// runs the test's body, then checks or writes the cassette. The trait and `withCassette` share it
/// and differ only in how they report.
struct CassetteRunner: Sendable {
    /// The cassette's name (made a safe file name for the path).
    var name: String
    /// The folder that holds the cassette.
    var directory: String
    var record: CassetteRecordMode
    var backend: CassetteBackend
    /// The seed given, if any (`embeddedSeed` on the embedded backend when none).
    var seed: String?
    /// The seed of a recording on the embedded backend when none is given.
    static let embeddedSeed = "workbench"
    var matching: ReplayMode?
    /// The `--filter` that runs this test alone, for the re-record command in reports.
    var testFilter: String
    /// Where a divergence is reported when no failure of the test places it.
    var place: DivergenceWatch.ReportPlace

    /// What a run found besides what the body threw: a failure of the test, or a note.
    struct Outcome: Sendable {
        /// The divergence report, or why the cassette could not be replayed; nil when it passed.
        var failure: String?
        /// What was recorded, or that nothing was because the test failed (a note, not a failure).
        var notice: String?
        /// What the test's body threw while recording: the caller reports the outcome, then throws it.
        var thrown: (any Error)?
        /// A failure that follows from a divergence reported while the test ran (what the test
        /// threw then), marked as such: reported after `failure`.
        var consequence: String?
    }

    /// The address under which the embedded backend is recorded, whatever port it got (the one
    /// `mpin-workbench record --embedded` uses).
    static let stableOrigin = WorkbenchVersion.embeddedBackendOrigin

    /// Name and version written into recorded cassettes (the workbench's version).
    static let tool = WorkbenchVersion.tool

    /// `<directory>/<safe name>.json`.
    var path: String { directory + "/" + SafeFileName.make(name) + ".json" }

    /// `<directory>/<safe name>.produced.json`: the flow a failing replay produced, beside its
    /// cassette, for `mpin-workbench cassette diff`. A passing replay or a recording removes it.
    var producedPath: String { directory + "/" + SafeFileName.make(name) + ".produced.json" }

    /// The command that records this test's cassette again.
    var rerecordCommand: String {
        "\(CassetteRecordMode.environmentVariable)=all swift test --filter '\(testFilter.replacing("'", with: "'\\''"))'"
    }

    /// The folder `__Cassettes__/<test file name without .swift>` next to the test file at `filePath`.
    static func defaultDirectory(forTestFile filePath: String) -> String {
        let url = URL(fileURLWithPath: filePath)
        return url.deletingLastPathComponent().appendingPathComponent("__Cassettes__")
            .appendingPathComponent(url.deletingPathExtension().lastPathComponent).path
    }

    /// Runs `body` against the cassette (replay) or a backend (record).
    ///
    /// - Returns: the failure to report (a divergence, a missing cassette under `never`, a cassette
    ///   that cannot be read), or a note of what was recorded. A test that failed while recording
    ///   (it recorded a failing issue or threw) writes nothing: its old cassette, if any, is kept,
    ///   and the note says so (with what it threw in `thrown`, for the caller to throw).
    /// - Throws: what `body` throws, unless the replay diverged (the divergence is the failure
    ///   then, and the error is named in it); `CassetteTestError` when the backend does not start
    ///   or the cassette cannot be written.
    func run(_ body: (CassetteSession) async throws -> Void) async throws -> Outcome {
        let exists = FileManager.default.fileExists(atPath: path)
        switch (record, exists) {
        case (.never, false):
            return Outcome(
                failure: "no cassette at \(path); record it with \(CassetteRecordMode.environmentVariable)=missing "
                    + "swift test --filter '\(testFilter)' (the record mode is never: "
                    + "set by the test, by \(CassetteRecordMode.environmentVariable) or because CI is set)")
        case (.all, _), (.missing, false), (.failed, false):
            removeProducedFlow()
            return try await recordCassette(body)
        default:
            return try await replayCassette(body)
        }
    }

    // MARK: - Replay

    private func replayCassette(_ body: (CassetteSession) async throws -> Void) async throws -> Outcome {
        let cassette: Cassette
        let replayer: Replayer
        do {
            cassette = try CassetteFile.read(path)
            replayer = try Replayer(
                cassette: cassette, mode: matching, path: path,
                fallbackRandom: SeededRandomSource(seed: cassette.scenario.seed ?? seed ?? Self.embeddedSeed),
                fallbackClock: FrozenClock(milliseconds: ScenarioScript.defaultStartTime))
        } catch let error as CassetteError {
            if record == .failed { return try await recordAgain(body, because: error.description) }
            return Outcome(failure: "\(error.description)\n  record it again with: \(rerecordCommand)")
        } catch let error as ReplayError {
            if record == .failed { return try await recordAgain(body, because: error.report.headline) }
            return Outcome(failure: report(error))
        }
        let flavour: MPinClient.Flavour =
            cassette.backend.flavour == BackendFlavour.mfaPlatform.rawValue ? .mfaPlatform : .milagro
        let session = CassetteSession(
            name: name, path: path, backendURL: cassette.backend.url, flavour: flavour,
            source: .replaying(replayer), liveTransport: nil, liveRandom: nil, liveClock: nil)
        let redacted = !cassette.redactions.isEmpty
        let producedNote = producedNote(redacted: redacted)
        let watch = DivergenceWatch(replayer: replayer, place: place, demoted: record == .failed) { error in
            report(error) + producedNote
        }
        var thrown: (any Error)?
        do {
            try await watch.run { try await body(session) }
        } catch {
            thrown = error
        }
        replayer.abandonHolds()
        var failed: ReplayError?
        do throws(ReplayError) {
            try replayer.finish()
        } catch {
            failed = error
        }
        guard let divergence = failed else {
            removeProducedFlow()
            if let thrown { throw thrown }
            return Outcome()
        }
        if record == .failed {
            // The failed replay's findings were warnings (Swift Testing).
            return try await recordAgain(body, because: "the replay " + divergence.report.headline)
        }
        if !redacted { writeProducedFlow(replayer) }
        if watch.reportedDuringRun {
            // Reported where the test noticed it; what the test threw then follows from it.
            return Outcome(
                consequence: thrown.map { "the test threw: \($0); " + DivergenceWatch.consequence(of: divergence) })
        }
        let note = thrown.map { "\n  the test then threw: \($0)" } ?? ""
        return Outcome(failure: report(divergence) + producedNote + note)
    }

    /// Record mode `failed` after a replay that failed (or a cassette that could not be read):
    /// records the cassette again, and the note says why.
    private func recordAgain(_ body: (CassetteSession) async throws -> Void, because why: String) async throws
        -> Outcome
    {
        removeProducedFlow()
        var outcome = try await recordCassette(body)
        outcome.notice =
            "cassette \"\(name)\": \(why); record mode failed, so it was recorded again: "
            + (outcome.notice ?? "")
        return outcome
    }

    /// The lines of a divergence report that name the produced flow (or why none is written).
    private func producedNote(redacted: Bool) -> String {
        guard !redacted else {
            return "\n  the flow this run produced is not written: the cassette is redacted, and the flow would "
                + "hold the values the replay was given for its placeholders"
        }
        return "\n  the flow this run produced is written beside it when the test ends; see the change with:"
            + "\n    mpin-workbench cassette diff '\(path)' '\(producedPath)'"
    }

    /// Writes the flow the failed replay produced to `producedPath` (best effort: a folder that
    /// cannot be written leaves the report as it is).
    private func writeProducedFlow(_ replayer: Replayer) {
        try? CassetteFile.write(replayer.producedFlow(), to: producedPath)
    }

    private func removeProducedFlow() {
        if FileManager.default.fileExists(atPath: producedPath) {
            try? FileManager.default.removeItem(atPath: producedPath)
        }
    }

    /// The replayer's report, with the command that records this test's cassette again in place
    /// of the scenario one.
    private func report(_ error: ReplayError) -> String {
        var report = error.report
        report.rerecord = rerecordCommand
        return report.text
    }

    // MARK: - Record

    private func recordCassette(_ body: (CassetteSession) async throws -> Void) async throws -> Outcome {
        let flavour = MPinClient.Flavour(backend.flavour)
        switch backend.kind {
        case .url(let url, let backendFlavour):
            // A live backend: the system's generator, unless the test gave a seed.
            let random: any RandomSource = seed.map { SeededRandomSource(seed: $0) } ?? SystemRandomSource()
            let recorder = Recorder(header: header(url: url, flavour: backendFlavour, embedded: false, seed: seed))
            let session = CassetteSession(
                name: name, path: path, backendURL: url, flavour: flavour,
                source: .recording(recorder, frozenClock: nil), liveTransport: CurlTransport.forRecording(),
                liveRandom: random, liveClock: SystemClock())
            let ran = await Self.watch(body, session)
            if ran.failed { return notRecorded(ran.thrown) }
            return try write(recorder, against: url)
        case .embedded(let request, let startTime):
            guard ScriptLimits.startTime.contains(startTime) else {
                throw CassetteTestError(
                    "cassette \"\(name)\": the embedded backend's startTime \(startTime) is not from "
                        + "\(ScriptLimits.startTime.lowerBound) to \(ScriptLimits.startTime.upperBound) ms since 1970 (1970 to 9999)"
                )
            }
            guard let starter = EmbeddedBackendStarters.linked else {
                throw EmbeddedBackendStarters.missing(cassette: name)
            }
            let seed = self.seed ?? Self.embeddedSeed
            let random = SeededRandomSource(seed: seed)
            let started: StartedEmbeddedBackend
            do {
                started = try await starter.start(request, seed: seed, startTime: startTime)
            } catch {
                throw CassetteTestError("cassette \"\(name)\": the embedded reference backend did not start: \(error)")
            }
            let frozen = started.clock
            let recorder = Recorder(
                header: header(url: Self.stableOrigin, flavour: request.flavour, embedded: true, seed: seed),
                recordsTimings: false)
            let transport = started.transport
            let session = CassetteSession(
                name: name, path: path, backendURL: Self.stableOrigin, flavour: flavour,
                source: .recording(recorder, frozenClock: frozen), liveTransport: transport,
                liveRandom: random, liveClock: frozen)
            let ran = await Self.watch(body, session)
            await started.stop()
            if ran.failed { return notRecorded(ran.thrown) }
            return try write(recorder, against: "the embedded reference backend")
        }
    }

    /// Runs the body of a recording: whether the test failed during it, and what it threw.
    private static func watch(
        _ body: (CassetteSession) async throws -> Void,
        _ session: CassetteSession
    ) async -> (failed: Bool, thrown: (any Error)?) {
        do {
            return (try await TestFailureWatch.failed { try await body(session) }, nil)
        } catch {
            return (true, error)
        }
    }

    /// The note of a recording left unwritten because the test failed (issue 26: a failing test's
    /// flow must not become the reference).
    private func notRecorded(_ thrown: (any Error)?) -> Outcome {
        let kept =
            FileManager.default.fileExists(atPath: path)
            ? "\(path) is kept as it was"
            : "there was no cassette at \(path), and none is written"
        return Outcome(
            notice: "cassette \"\(name)\": the test failed, so nothing was recorded: \(kept) (record mode \(record)); "
                + "once it passes, record it with: \(rerecordCommand)", thrown: thrown)
    }

    private func header(url: String, flavour: BackendFlavour, embedded: Bool, seed: String?) -> Cassette {
        Cassette(
            tool: Self.tool, curve: "BN254CX", scenario: .init(name: name, seed: seed),
            backend: .init(url: url, flavour: flavour.rawValue, embedded: embedded))
    }

    private func write(_ recorder: Recorder, against backend: String) throws(CassetteTestError) -> Outcome {
        guard recorder.pendingExchanges == 0 else {
            throw CassetteTestError(
                "cassette \"\(name)\": \(recorder.pendingExchanges) request(s) still had no answer when the test "
                    + "ended; nothing written to \(path)")
        }
        do {
            try Directories.create(directory)
        } catch {
            throw CassetteTestError("cassette \"\(name)\": \(error.description); nothing written")
        }
        let written: Cassette
        do {
            written = try recorder.write(to: path)
        } catch {
            throw CassetteTestError("cassette \"\(name)\": \(error.description)")
        }
        return Outcome(
            notice: "recorded \(path): \(written.events.count) events against \(backend) (record mode \(record)); "
                + "later runs replay it offline")
    }
}
