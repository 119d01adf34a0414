import ArgumentParser
import FileAccess
import FlowRecording
import Foundation
import MilagroRecording
import MPinSDK
import OrderedJSON
import Scenarios

/// `mpin-workbench record SCENARIO`: runs a scenario live and writes its cassette.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a scenario live through libcurl and write its cassette.",
        discussion: """
            With --embedded (the default when no --backend is given) the reference backend starts \
            in-process on a free loopback port, seeded from --seed, on a clock frozen at the script's \
            startTime; it is recorded as \(ScenarioCommandSupport.stableOrigin), without timings, so \
            recording the same scenario twice writes the same bytes. Against --backend URL the SDK's \
            randomness is seeded only when --seed is given, and a backend that is not on loopback gets \
            its secrets redacted (--redact default) unless --redact none.

            Exit status: 0 when recorded, 1 when the scenario failed (nothing written), 2 when the \
            script cannot be read, the cassette cannot be written or the usage was wrong.
            """
    )

    @Argument(help: "The scenario script (YAML or JSON).")
    var scenario: String

    @Option(help: "A live backend URL to record against.")
    var backend: String?

    @Flag(help: "Start the reference backend in-process (the default).")
    var embedded = false

    @Option(help: "Override the script's flavour: milagro or mfa-platform.")
    var flavour: BackendFlavour?

    @Option(help: "The cassette file (default: Recordings/<scenario name>.json).")
    var out: String?

    @Option(help: "Seed of the SDK's randomness and of the embedded backend (default: the script's seed, else \"workbench\").")
    var seed: String?

    @Option(parsing: .upToNextOption,
            help: "Fields to redact: 'default' (PIN, tokens, shares, SEC, x and the random draws, OTTs, OTPs, codes, ...: what `cassette audit` checks), 'none', or field names.")
    var redact: [String] = []

    @Option(parsing: .unconditional,
            help: "Also time N unrecorded and N recorded runs against the embedded backend and print the recorder's overhead (1 to 1000).",
            transform: BoundedNumber.integer(RecordCommand.benchRange))
    var bench: Int?

    /// `--bench`.
    static let benchRange = 1...1_000

    func validate() throws {
        if backend != nil && embedded { throw ValidationError("Give --backend URL or --embedded, not both.") }
        if redact.contains("none"), redact.count > 1 {
            throw ValidationError("--redact none redacts nothing; it cannot go with \(redact.filter { $0 != "none" }.joined(separator: ", ")).")
        }
    }

    func run() throws {
        var script = try ScenarioCommandSupport.readScript(scenario)
        if let flavour { script.flavour = flavour }
        let seed = seed ?? script.seed ?? "workbench"
        let output = out ?? Self.defaultOutput(for: script.name)
        if out == nil, SafeFileName.make(script.name) != script.name {
            Console.error("warning: the scenario name \(JSONWriter.quoted(script.name)) is not a safe file name; writing \(output)\n")
        }
        let backendURL = backend
        let fields = redactedFields(live: backendURL)
        let recorded: (Cassette, Double)
        do {
            recorded = try ScenarioCommandSupport.blocking { [script] in
                try await Self.record(script, seed: seed, backendURL: backendURL)
            }
        } catch let failure as ScenarioFailure {
            ScenarioCommandSupport.error(failure.description + " (nothing written)")
            throw ExitCode(1)
        }
        let (cassette, seconds) = recorded
        var final = cassette
        if !fields.isEmpty { final = Redactor(fields: fields).redact(final) }
        for field in redact where !["default", "none"].contains(field) && !final.redactions.contains(where: { $0.field.lowercased() == field.lowercased() }) {
            Console.error("warning: --redact \(field): no value of that name in the recording, nothing redacted for it\n")
        }
        do {
            try Directories.create((output as NSString).deletingLastPathComponent)
        } catch {
            ScenarioCommandSupport.error(error.description)
            throw ExitCode(2)
        }
        do {
            try CassetteFile.write(final, to: output)
        } catch {
            ScenarioCommandSupport.error(error.description)
            throw ExitCode(2)
        }
        let placeholders = final.redactions.map(\.placeholder)
        print("\(output): \(script.name), \(final.events.count) events, \(script.steps.count) steps in "
              + String(format: "%.2f s", seconds) + (placeholders.isEmpty ? "" : "; redacted: " + placeholders.joined(separator: ", ")))
        if let bench { try benchmark(script, seed: seed, runs: bench) }
    }

    /// `Recordings/<name>.json`, the name made a safe file name (`../../x` gives `______x`), so a
    /// script's name cannot write outside the folder.
    static func defaultOutput(for name: String) -> String {
        "Recordings/\(SafeFileName.make(name)).json"
    }

    func redactedFields(live: String?) -> [String] {
        Self.redactedFields(redact, live: live)
    }

    /// The fields `--redact` names (`record`, `proxy`): none for `none`, the Milagro secrets for
    /// `default` (and by default for a backend not on loopback), plus any names given.
    static func redactedFields(_ redact: [String], live: String?) -> [String] {
        if redact.contains("none") { return [] }
        if redact.contains("default") || (redact.isEmpty && live.map { !ScenarioCommandSupport.isLoopback($0) } == true) {
            return Redactor.milagroFields + redact.filter { $0 != "default" }
        }
        return redact
    }

    static func record(_ script: ScenarioScript, seed: String, backendURL: String?) async throws -> (Cassette, Double) {
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        if let backendURL {
            let header = ScenarioSession.header(for: script, backendURL: backendURL, embedded: false, seed: seed, tool: ScenarioCommandSupport.tool)
            let cassette = try await ScenarioSession.record(script, header: header, transport: ScenarioCommandSupport.curl(),
                                                            random: SeededRandomSource(seed: seed), clock: SystemClock())
            return (cassette, elapsed())
        }
        let session = try await EmbeddedSession.start(script, seed: seed)
        do {
            let header = ScenarioSession.header(for: script, backendURL: ScenarioCommandSupport.stableOrigin, embedded: true, seed: seed,
                                                tool: ScenarioCommandSupport.tool)
            let clock = session.clock
            let backend = session.backend
            let cassette = try await ScenarioSession.record(script, header: header, transport: session.transport,
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
    func benchmark(_ script: ScenarioScript, seed: String, runs: Int) throws {
        let (plain, recorded) = try ScenarioCommandSupport.blocking { [script] in
            var plain: [Double] = [], recorded: [Double] = []
            for _ in 0..<max(1, runs) {
                let session = try await EmbeddedSession.start(script, seed: seed)
                let clock = session.clock
                let backend = session.backend
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await ScenarioSession.run(script, backendURL: ScenarioCommandSupport.stableOrigin, transport: session.transport,
                                                  random: SeededRandomSource(seed: seed), clock: clock,
                                                  advanceClock: { clock.advance(milliseconds: $0) }, canWait: true, seed: seed,
                                                  heldRequests: { backend.heldLogins })
                plain.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                await session.stop()
                let second = try await EmbeddedSession.start(script, seed: seed)
                let clock2 = second.clock
                let backend2 = second.backend
                let header = ScenarioSession.header(for: script, backendURL: ScenarioCommandSupport.stableOrigin, embedded: true,
                                                    seed: seed, tool: ScenarioCommandSupport.tool)
                let start2 = DispatchTime.now().uptimeNanoseconds
                let cassette = try await ScenarioSession.record(script, header: header, transport: second.transport,
                                                                random: SeededRandomSource(seed: seed), clock: clock2,
                                                                advanceClock: { clock2.advance(milliseconds: $0) }, canWait: true,
                                                                recordsTimings: false, heldRequests: { backend2.heldLogins })
                _ = cassette.canonicalBytes
                recorded.append(Double(DispatchTime.now().uptimeNanoseconds - start2) / 1e9)
                await second.stop()
            }
            return (plain.sorted()[plain.count / 2], recorded.sorted()[recorded.count / 2])
        }
        print(String(format: "bench %@: unrecorded %.1f ms, recorded %.1f ms (median of %d), recorder overhead %+.1f%%",
                     script.name, plain * 1000, recorded * 1000, max(1, runs), (recorded / plain - 1) * 100))
    }
}
