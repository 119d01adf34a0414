import ArgumentParser
import Benchmarks
import FileAccess
import FlowRecording
import Foundation
import MPinSDK
import MilagroRecording
import OrderedJSON
import Scenarios

/// `mpin-workbench record SCENARIO`: runs a scenario live and writes its cassette.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a scenario live through libcurl and write its cassette.",
        discussion: """
            SCENARIO is a script file or the name (or alias) of a bundled scenario: under \
            $MPIN_WORKBENCH_SCENARIOS, else Scenarios/ here, else the Scenarios/ (or \
            share/mpin-workbench/Scenarios/) beside the program, as `replay` finds it. Without --backend (--embedded \
            says so explicitly) the reference backend starts in-process on a free loopback port, \
            seeded from the seed, on a clock frozen at the script's startTime; it is recorded as \
            \(ScenarioCommandSupport.stableOrigin), without timings, so recording the same scenario \
            twice writes the same bytes. The seed is --seed, else the script's, else \
            "\(ScenarioCommandSupport.defaultSeed)"; the cassette keeps it. Against --backend the \
            SDK draws from the system's cryptographic generator and the cassette keeps the draws, \
            so replay still hands out the same bytes; --seed there makes the draws follow the seed, \
            with a warning: whoever knows the seed can compute the client secret from the traffic. \
            A --backend that is not on loopback gets its secrets redacted (--redact default) unless \
            --redact none; the default redaction also removes the seed.

            Exit status: 0 when recorded, 1 when the scenario failed (nothing written), 2 when the \
            script cannot be read, the cassette cannot be written or the usage was wrong.

            Examples:
              mpin-workbench record authenticate
              mpin-workbench record Scenarios/authenticate.yaml \\
                  --out Recordings/authenticate.json
              mpin-workbench record authenticate --backend http://127.0.0.1:8005 \\
                  --seed s1 --redact default
              mpin-workbench record authenticate --profile milagro-oss --bench 5
            """
    )

    @Argument(
        help: "The scenario: a script file (YAML or JSON) or a bundled scenario's name.",
        completion: .custom { _, _, prefix in ScenarioCommandSupport.completions(prefix) })
    var scenario: String

    @Option(help: "A live backend URL to record against.")
    var backend: String?

    @Flag(help: "Start the reference backend in-process: the default without --backend, accepted to say so.")
    var embedded = false

    @OptionGroup var overrides: ScenarioBackendOption

    @Option(help: "The cassette file (default: Recordings/<scenario name>.json).")
    var out: String?

    @Option(help: ArgumentHelp(ScenarioCommandSupport.seedHelp))
    var seed: String?

    @Option(
        parsing: .upToNextOption,
        help:
            "Fields to redact: 'default' (PIN, tokens, shares, SEC, x and the random draws, OTTs, OTPs, codes, ...: what `cassette audit` checks), 'none', or field names."
    )
    var redact: [String] = []

    @Option(
        parsing: .unconditional,
        help:
            "Also time N unrecorded and N recorded runs against the embedded backend and print the recorder's overhead (1 to 1000).",
        transform: BoundedNumber.integer(RecordCommand.benchRange))
    var bench: Int?

    /// `--bench`.
    static let benchRange = 1...1_000

    func validate() throws {
        if backend != nil && embedded { throw ValidationError("Give --backend URL or --embedded, not both.") }
        try overrides.check(backend: backend)
        if redact.contains("none"), redact.count > 1 {
            throw ValidationError(
                "--redact none redacts nothing; it cannot go with \(redact.filter { $0 != "none" }.joined(separator: ", "))."
            )
        }
    }

    func run() async throws {
        let script = overrides.apply(to: try ScenarioCommandSupport.readScript(scenario))
        let randomness = ScenarioCommandSupport.randomness(seed, script: script, live: backend)
        if let warning = randomness.warning { Console.error(warning + "\n") }
        let output = out ?? Self.defaultOutput(for: script.name)
        if out == nil, SafeFileName.make(script.name) != script.name {
            Console.error(
                "warning: the scenario name \(JSONWriter.quoted(script.name)) is not a safe file name; writing \(output)\n"
            )
        }
        let fields = redactedFields(live: backend)
        let recorded: (Cassette, Double)
        do {
            recorded = try await Self.record(
                script, seed: randomness.seed, random: randomness.random, backendURL: backend)
        } catch let failure as ScenarioFailure {
            Console.failure(failure.description + " (nothing written)")
            throw ExitCode.failure
        }
        let (cassette, seconds) = recorded
        var final = cassette
        if !fields.isEmpty { final = Redactor(fields: fields).redact(final) }
        for field in redact
        where !["default", "none"].contains(field)
            && !final.redactions.contains(where: { $0.field.lowercased() == field.lowercased() })
        {
            Console.error(
                "warning: --redact \(field): no value of that name in the recording, nothing redacted for it\n")
        }
        do {
            try Directories.create((output as NSString).deletingLastPathComponent)
        } catch {
            throw CommandFailure(error.description)
        }
        do {
            try CassetteFile.write(final, to: output)
        } catch {
            throw CommandFailure(error.description)
        }
        let placeholders = final.redactions.map(\.placeholder)
        Console.line(
            "\(output): \(script.name), \(final.events.count) events, \(script.steps.count) steps in "
                + String(format: "%.2f s", seconds)
                + (placeholders.isEmpty ? "" : "; redacted: " + placeholders.joined(separator: ", ")))
        if let bench {
            try await benchmark(script, seed: ScenarioCommandSupport.seed(seed, script: script), runs: bench)
        }
    }

    /// `Recordings/<name>.json`, the name made a safe file name (`../../x` gives `______x`), so a
    /// script's name cannot write outside the folder.
    static func defaultOutput(for name: String) -> String {
        "Recordings/\(SafeFileName.make(name)).json"
    }

    func redactedFields(live: String?) -> [String] {
        Redactor.milagroFields(for: redact, live: live)
    }

    /// Records `script` against `backendURL` (the SDK drawing from `random`, the system's generator
    /// unless the user gave a seed; `seed` is then the one the cassette names), else against the
    /// embedded backend, seeded from `seed` (`random` is then not used: the seed drives both sides).
    static func record(_ script: ScenarioScript, seed: String?, random: any RandomSource, backendURL: String?)
        async throws -> (Cassette, Double)
    {
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        if let backendURL {
            let header = ScenarioSession.header(
                for: script, backendURL: backendURL, embedded: false, seed: seed, tool: ScenarioCommandSupport.tool)
            let cassette = try await ScenarioSession.record(
                script, header: header, transport: ScenarioCommandSupport.curl(),
                random: random, clock: SystemClock())
            return (cassette, elapsed())
        }
        let seed = seed ?? ScenarioCommandSupport.seed(nil, script: script)
        let session = try await EmbeddedSession.start(script, seed: seed)
        do {
            let header = ScenarioSession.header(
                for: script, backendURL: ScenarioCommandSupport.stableOrigin, embedded: true, seed: seed,
                tool: ScenarioCommandSupport.tool)
            let clock = session.clock
            let backend = session.backend
            let cassette = try await ScenarioSession.record(
                script, header: header, transport: session.transport,
                random: SeededRandomSource(seed: seed), clock: clock,
                advanceClock: { clock.advance(milliseconds: $0) }, canWait: true,
                recordsTimings: false, heldRequests: { backend.heldLogins })
            await session.stop()
            return (cassette, elapsed())
        } catch {
            await session.stop()
            throw error
        }
    }

    /// Median seconds of `runs` plain runs and `runs` recorded runs, each against a fresh embedded backend.
    func benchmark(_ script: ScenarioScript, seed: String, runs: Int) async throws {
        var plain: [Double] = [], recorded: [Double] = []
        for _ in 0..<max(1, runs) {
            let session = try await EmbeddedSession.start(script, seed: seed)
            let clock = session.clock
            let backend = session.backend
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await ScenarioSession.run(
                script, backendURL: ScenarioCommandSupport.stableOrigin, transport: session.transport,
                random: SeededRandomSource(seed: seed), clock: clock,
                advanceClock: { clock.advance(milliseconds: $0) }, canWait: true, seed: seed,
                heldRequests: { backend.heldLogins })
            plain.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            await session.stop()
            let second = try await EmbeddedSession.start(script, seed: seed)
            let clock2 = second.clock
            let backend2 = second.backend
            let header = ScenarioSession.header(
                for: script, backendURL: ScenarioCommandSupport.stableOrigin, embedded: true,
                seed: seed, tool: ScenarioCommandSupport.tool)
            let start2 = DispatchTime.now().uptimeNanoseconds
            let cassette = try await ScenarioSession.record(
                script, header: header, transport: second.transport,
                random: SeededRandomSource(seed: seed), clock: clock2,
                advanceClock: { clock2.advance(milliseconds: $0) }, canWait: true,
                recordsTimings: false, heldRequests: { backend2.heldLogins })
            _ = cassette.canonicalBytes
            recorded.append(Double(DispatchTime.now().uptimeNanoseconds - start2) / 1e9)
            await second.stop()
        }
        let plainMedian = Median.of(plain), recordedMedian = Median.of(recorded)
        Console.line(
            String(
                format: "bench %@: unrecorded %.1f ms, recorded %.1f ms (median of %d), recorder overhead %+.1f%%",
                script.name, plainMedian * 1000, recordedMedian * 1000, max(1, runs),
                (recordedMedian / plainMedian - 1) * 100))
    }
}
