import FlowRecording
import MPinSDK
import MilagroRecording
import OrderedJSON

/// The three ways to run a script: live (`run`), live while recording a cassette (`record`), and
/// offline from a cassette (`replay`).
public enum ScenarioSession {
    /// The seed of replay's fallback generator, for draws a cassette does not hold.
    public static let replayFallbackSeed = "replay"

    /// The cassette header of a recording of `script`.
    public static func header(
        for script: ScenarioScript, backendURL: String, embedded: Bool, seed: String?,
        tool: Cassette.Tool
    ) -> Cassette {
        Cassette(
            tool: tool, curve: "BN254CX",
            scenario: .init(name: script.name, path: script.path, seed: seed, script: script.source),
            backend: .init(url: backendURL, flavour: script.flavour.rawValue, embedded: embedded))
    }

    /// Runs `script` live, without a cassette.
    /// `heldRequests` tells how many requests the backend holds (see `ScenarioEnvironment`).
    public static func run(
        _ script: ScenarioScript, backendURL: String, transport: any HTTPTransport, random: any RandomSource,
        clock: any SDKClock, advanceClock: @escaping @Sendable (Int64) -> Void = { _ in }, canWait: Bool = false,
        seed: String? = nil, heldRequests: (@Sendable () -> Int)? = nil
    ) async throws(ScenarioFailure) -> [StepOutcome] {
        let environment = ScenarioEnvironment(
            backendURL: backendURL, transport: { _ in transport }, random: random, clock: clock,
            advanceClock: advanceClock, canWait: canWait,
            variables: seed.map { ["seed": $0] } ?? [:], heldRequests: heldRequests)
        return try await ScenarioRunner(script: script, environment: environment).run()
    }

    /// Runs `script` live through `transport`, `random` and `clock`, each wrapped by a `Recorder`,
    /// and returns the cassette.
    public static func record(
        _ script: ScenarioScript, header: Cassette, transport: any HTTPTransport, random: any RandomSource,
        clock: any SDKClock, advanceClock: @escaping @Sendable (Int64) -> Void = { _ in }, canWait: Bool = false,
        recordsTimings: Bool = true, heldRequests: (@Sendable () -> Int)? = nil
    ) async throws(ScenarioFailure) -> Cassette {
        let recorder = Recorder(header: header, recordsTimings: recordsTimings)
        let environment = ScenarioEnvironment(
            backendURL: header.backend.url,
            transport: { actor in recorder.transport(wrapping: transport, actor: actor) },
            random: recorder.randomSource(wrapping: random), clock: recorder.clock(wrapping: clock),
            sink: RecorderSink(recorder),
            beginStep: { recorder.beginStep($0) }, advanceClock: advanceClock, canWait: canWait,
            variables: header.scenario.seed.map { ["seed": $0] } ?? [:], heldRequests: heldRequests)
        _ = try await ScenarioRunner(script: script, environment: environment).run()
        return recorder.cassette()
    }

    /// Reads the cassette at `path` and replays it.
    public static func replay(
        file path: String, mode: ReplayMode? = nil, placeholders: [String: String] = [:],
        library: ScenarioLibrary = ScenarioLibrary()
    ) async -> ReplayOutcome {
        do {
            let cassette = try CassetteFile.read(path)
            return await replay(cassette, path: path, mode: mode, placeholders: placeholders, library: library)
        } catch {
            return ReplayOutcome(
                path: path, scenario: nil, events: 0, failure: error.description, kind: "cassette: \(error.kind)")
        }
    }

    /// Replays a cassette offline: its scenario drives the SDK over replay seams, a `Replayer`
    /// checks every request, API result, crypto step, random draw and clock read.
    ///
    /// A redacted cassette given no value at all replays on stand-ins (`Redactor.milagroStandIns`):
    /// the flow is checked, the crypto checks that need a secret are not made, and the outcome is
    /// partial, never a pass, with each check not made listed. Given some values, every missing one
    /// is named instead; a divergence at an event that held placeholders names them.
    public static func replay(
        _ cassette: Cassette, path: String?, mode: ReplayMode? = nil, placeholders: [String: String] = [:],
        library: ScenarioLibrary = ScenarioLibrary()
    ) async -> ReplayOutcome {
        let name = path ?? cassette.scenario.name
        func failed(_ message: String, _ kind: String) -> ReplayOutcome {
            ReplayOutcome(
                path: name, scenario: cassette.scenario.name, events: cassette.events.count, failure: message,
                kind: kind)
        }
        var script: ScenarioScript
        // A redacted cassette's script has placeholders too. Restored once here; without every
        // value `restored` is the cassette as read, and the Replayer below refuses to start and
        // names the missing ones.
        let needed = Set(Redactor.placeholderNames(in: cassette) + cassette.redactions.map(\.placeholder))
        let standIns = placeholders.isEmpty && !needed.isEmpty ? Redactor.milagroStandIns(for: cassette) : [:]
        let restored =
            (try? Redactor.restore(cassette, values: placeholders.merging(standIns) { given, _ in given }, path: path))
            ?? cassette
        do {
            if let source = restored.scenario.script {
                // The file it came from, when unchanged: its line numbers then mean something (and
                // the script the cassette carries need not be parsed too: it says the same).
                if let file = cassette.scenario.path, let original = try? ScriptParser.parse(file: file),
                    original.source.semanticallyEquals(source)
                {
                    script = original
                } else {
                    script = try ScriptParser.parse(
                        JSONWriter.compact(source), file: (path ?? "cassette") + " (scenario)")
                    script.path = cassette.scenario.path
                }
            } else if let found = try library.find(cassette.scenario.name) {
                script = found
            } else if let upstream = cassette.backend.upstream {
                // A proxy's recording: the client's exchanges, no SDK calls to drive again.
                let file = path ?? "FILE"
                return failed(
                    "\(name): a proxy's cassette (recorded from a client in front of \(upstream)) holds the client's "
                        + "HTTP exchanges and no script, so there is no SDK flow to replay; serve it to the client "
                        + "with `mpin-workbench cassette serve \(file)`, check it with `mpin-workbench cassette check "
                        + "\(file)`, or record the flow as a scenario with `mpin-workbench proxy --upstream \(upstream) "
                        + "--scenario NAME ...`", "scenario")
            } else {
                return failed(
                    "\(name): the cassette carries no script and no scenario named \"\(cassette.scenario.name)\" is in "
                        + "\(library.directory)/", "scenario")
            }
        } catch {
            return failed("\(name): \(error)", "scenario")
        }
        let replayer: Replayer
        do {
            replayer = try Replayer(
                cassette: restored, mode: mode, placeholders: placeholders, path: path,
                fallbackRandom: SeededRandomSource(seed: cassette.scenario.seed ?? replayFallbackSeed),
                fallbackClock: FrozenClock(milliseconds: script.startTime), standIns: standIns)
        } catch {
            return failed(error.description, error.kind.description)
        }
        var environment = ScenarioEnvironment(
            backendURL: cassette.backend.url, transport: { replayer.transport(actor: $0) },
            random: replayer.randomSource(),
            clock: replayer.clock(), sink: ReplayerSink(replayer), beginStep: { replayer.beginStep($0) }, canWait: true,
            variables: cassette.scenario.seed.map { ["seed": $0] } ?? [:], heldRequests: { replayer.heldCount },
            releaseHolds: { replayer.abandonHolds() })
        environment.pacesPolls = false
        var scenarioFailure: ScenarioFailure?
        do {
            _ = try await ScenarioRunner(script: script, environment: environment).run()
        } catch {
            scenarioFailure = error
        }
        do {
            try replayer.finish()
        } catch {
            let note = scenarioFailure.map { "\n  the scenario then stopped: \($0)" } ?? ""
            return failed(
                error.description + note
                    + placeholderNote(cassette, at: error.report.eventIndex, standIns: !standIns.isEmpty),
                error.kind.description)
        }
        if let scenarioFailure {
            return failed(
                "\(name): replay (\(replayer.mode)) matched the cassette but the scenario failed: \(scenarioFailure)",
                "expectation")
        }
        var outcome = ReplayOutcome(
            path: name, scenario: cassette.scenario.name, events: cassette.events.count, failure: nil, kind: nil)
        if !standIns.isEmpty {
            outcome.unchecked = replayer.unchecked
            if outcome.unchecked.isEmpty {
                outcome.unchecked = ["the values of \(standIns.count) placeholders were not supplied"]
            }
        }
        return outcome
    }

    /// For a divergence at an event that held placeholders: which ones, so that a value given for
    /// the wrong placeholder shows where it went.
    static func placeholderNote(_ cassette: Cassette, at index: Int?, standIns: Bool) -> String {
        guard let index, cassette.events.indices.contains(index) else { return "" }
        var one = cassette
        one.events = [cassette.events[index]]
        one.scenario.script = nil
        let names = Redactor.placeholderNames(in: one)
        guard !names.isEmpty else { return "" }
        let list = names.map(Placeholder.text).joined(separator: ", ")
        return standIns
            ? "\n  event \(index) held \(list), replayed on stand-ins (no secret was supplied); give every --secret for a full crypto replay"
            : "\n  event \(index) held \(list) in the cassette: check the value given for each (--secret NAME=VALUE)"
    }
}

/// The verdict of one replayed cassette.
public struct ReplayOutcome: Sendable, CustomStringConvertible {
    public var path: String
    public var scenario: String?
    public var events: Int
    /// The divergence report (or why the replay could not start); nil when it passed.
    public var failure: String?
    /// The kind of failure (`requestMismatch`, `cryptoMismatch`, `expectation`, `cassette: missingFile`, ...).
    public var kind: String?

    /// The checks not made (a redacted cassette replayed without its secrets); not empty, the
    /// outcome is partial: the flow matched, and it is not a pass.
    public var unchecked: [String] = []

    public var passed: Bool { failure == nil && unchecked.isEmpty }
    /// The flow matched, but some checks could not be made (`unchecked`).
    public var isPartial: Bool { failure == nil && !unchecked.isEmpty }

    public var description: String {
        if let failure { return failure }
        if isPartial {
            return
                "\(path): flow checked (\(events) events), not a full pass: \(unchecked.count) check\(unchecked.count == 1 ? "" : "s") not made "
                + "(redacted; give every --secret for a full crypto replay):\n"
                + unchecked.map { "  " + $0 }.joined(separator: "\n")
        }
        return "\(path): passed (\(events) events)"
    }
}
