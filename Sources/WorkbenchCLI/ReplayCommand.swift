import ArgumentParser
import Dispatch
import FileAccess
import FlowRecording
import Foundation
import Scenarios

/// `mpin-workbench replay CASSETTE...`: re-runs cassettes offline and reports divergences.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay cassettes offline; print `N passed, M failed` and a divergence report for each failure.",
        discussion: """
            Each cassette's scenario (its own copy of the script, else the bundled scenario of the \
            same name under --scenarios) drives the SDK again over replay seams: requests are answered \
            from the cassette, random draws and clock reads are served from it, and every request, API \
            result and crypto intermediate is checked. Strict mode (the default for recordings) wants \
            byte-identical requests in order; imported cassettes ask for context or method-url. Exit status: 0 when \
            all pass, 1 when any fails, 2 when a cassette cannot be read (missing, not JSON, a newer \
            format, a schema error; named again on standard error) or the usage was wrong. --junit FILE also writes a JUnit XML report: one testcase per \
            cassette, failed with its divergence report, an error when the cassette cannot be read.

            A redacted cassette replayed with no --secret is checked on stand-ins: order, methods, \
            paths, statuses and every value not redacted; the crypto checks that need a secret are \
            not made. It prints PARTIAL with each check not made and why, never PASS, and counts \
            as partial, not passed (exit status 0 unless something failed; in JUnit a failure of \
            type "partial"). Give every --secret for a full crypto replay; a divergence at an event \
            that held placeholders names them.

            --shard K/N replays only the K-th of N parts: the cassettes (directories expanded) sorted \
            by path, split into N contiguous runs that differ in length by at most one, so the parts do \
            not depend on the order the paths are given or a directory lists them. A part may be empty \
            (more shards than cassettes): it passes. The JUnit suite is named `replay (shard K/N)`.

            A divergence at a random draw, or one in a cassette that holds no random draws and no \
            seed, ends with a hint about the seed: the run was seeded otherwise than the recording \
            (`record`, `run` and `proxy` take --seed, else the script's, else \
            "\(ScenarioCommandSupport.defaultSeed)").

            Examples:
              mpin-workbench replay Recordings/
              mpin-workbench replay Recordings/authenticate.json --mode json \\
                  --junit replay.xml
              mpin-workbench replay redacted.json --secret pin=1234 --secret regOTT=ab12
              mpin-workbench replay Recordings/ --shard 2/4 --table
            """
    )

    @Argument(help: "Cassette files (a directory stands for every .json file in it).")
    var cassettes: [String]

    @Option(
        help: "strict, method-url (or loose), json, ignore or context (default: the cassette's own mode, else strict).",
        completion: .list(ReplayMode.Matching.allCases.map(\.rawValue) + ["loose"]))
    var mode: String?

    @Option(
        parsing: .upToNextOption, help: "With --mode ignore: JSON members, headers, query and call fields to ignore.")
    var ignore: [String] = []

    @Option(parsing: .upToNextOption, help: "Values of redacted placeholders, NAME=VALUE.")
    var secret: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where bundled scenarios are looked up by name (default: the bundled scenarios' folder, "
                + "found as record finds it).", valueName: "folder"))
    var scenarios: String?

    @Flag(help: "Print a summary table (cassette, scenario, events, result) instead of one line per cassette.")
    var table = false

    @OptionGroup var junit: JUnitOption

    @OptionGroup var shard: ShardOption

    @Option(
        parsing: .unconditional,
        help: "Replay everything N times and print cassettes replayed per second (a benchmark), 1 to 1000.",
        transform: BoundedNumber.integer(ReplayCommand.benchRange))
    var bench: Int?

    /// `--bench`.
    static let benchRange = 1...1_000

    func validate() throws {
        if let mode, ReplayMode(name: mode) == nil {
            throw ValidationError("--mode is strict, method-url (loose), json, ignore or context.")
        }
        for pair in secret where !pair.contains("=") {
            throw ValidationError("--secret takes NAME=VALUE, got \"\(pair)\".")
        }
        if !ignore.isEmpty, let mode, ReplayMode(name: mode)?.matching != .ignore {
            throw ValidationError("--ignore goes with --mode ignore; with --mode \(mode) it would be ignored.")
        }
    }

    /// Options given that cannot take effect: each a warning, and the replay runs without them.
    var warnings: [String] {
        guard !ignore.isEmpty, mode == nil else { return [] }
        return ["warning: --ignore goes with --mode ignore; with each cassette's own mode it has no effect"]
    }

    func run() async throws {
        for warning in warnings { Console.error(warning + "\n") }
        if mode.flatMap({ ReplayMode(name: $0) })?.matching == .ignore, ignore.isEmpty {
            Console.error(
                "warning: --mode ignore without --ignore ignores nothing: bodies are compared as JSON, as --mode json does\n"
            )
        }
        for path in cassettes where Directories.isFolder(path) && Self.expand([path]).isEmpty {
            throw CommandFailure("\(path): a directory with no .json file in it: no cassette to replay")
        }
        try junit.check()
        let all = Self.expand(cassettes)
        let files = shard.part(of: all)
        let chosen = mode.flatMap { ReplayMode(name: $0, ignoring: ignore) }
        var values: [String: String] = [:]
        for pair in secret {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = String(parts[1])
        }
        let library = ScenarioLibrary(directory: scenarios)
        let placeholders = values
        // Read once: a --secret no cassette has a placeholder for is named; an unreadable file is
        // reported by the replay below.
        let loaded = files.map { file in (file, try? CassetteFile.read(file)) }
        let used = Set(
            loaded.compactMap(\.1).flatMap { Redactor.placeholderNames(in: $0) + $0.redactions.map(\.placeholder) })
        // A shard sees only its part of the cassettes: a placeholder may be in another part.
        for name in values.keys.sorted() where !used.contains(name) && shard.shard == nil {
            Console.error(
                "warning: --secret \(name): no cassette has the placeholder \(Placeholder.text(name)); the value is not used\n"
            )
        }
        var timed: [(ReplayOutcome, Duration)] = []
        let clock = ContinuousClock()
        for (file, cassette) in loaded {
            let start = clock.now
            var outcome =
                if let cassette {
                    await ScenarioSession.replay(
                        cassette, path: file, mode: chosen, placeholders: placeholders, library: library)
                } else {
                    await ScenarioSession.replay(file: file, mode: chosen, placeholders: placeholders, library: library)
                }
            if let cassette, let failure = outcome.failure,
                let hint = Self.seedHint(kind: outcome.kind, cassette: cassette)
            {
                outcome.failure = failure + "\n" + hint
            }
            timed.append((outcome, clock.now - start))
        }
        let outcomes = timed.map { $0.0 }
        if table {
            Console.line(Self.table(outcomes))
            for outcome in outcomes where !outcome.passed { Console.line(outcome.description) }
        } else {
            for outcome in outcomes {
                if outcome.passed {
                    Console.line("PASS \(outcome.path) (\(outcome.events) events)")
                } else if outcome.isPartial {
                    Console.line("PARTIAL \(outcome.description)")
                } else {
                    Console.line("FAIL \(outcome.failure ?? outcome.path)")
                }
            }
        }
        let failed = outcomes.filter { $0.failure != nil }.count
        let partial = outcomes.filter(\.isPartial).count
        let part = shard.shard.map { " (shard \($0): \(files.count) of \(all.count) cassettes)" } ?? ""
        Console.line(
            "\(outcomes.count - failed - partial) passed, \(partial > 0 ? "\(partial) partial (flow only), " : "")\(failed) failed\(part)"
        )
        try junit.write(Self.junitReport(timed, suite: shard.suiteName("replay")))
        if let bench {
            await benchmark(files, mode: chosen, placeholders: placeholders, library: library, rounds: bench)
        }
        let unreadable = outcomes.filter { $0.kind?.hasPrefix("cassette: ") == true }
        for outcome in unreadable { Console.failure(outcome.failure ?? outcome.path) }
        if !unreadable.isEmpty { throw ExitCode.cannotRun }
        if failed > 0 { throw ExitCode.failure }
    }

    func benchmark(
        _ files: [String], mode: ReplayMode?, placeholders: [String: String], library: ScenarioLibrary, rounds: Int
    ) async {
        let loaded = files.compactMap { file in (try? CassetteFile.read(file)).map { (file, $0) } }
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0, events = 0
        for _ in 0..<rounds {
            for (file, cassette) in loaded {
                _ = await ScenarioSession.replay(
                    cassette, path: file, mode: mode, placeholders: placeholders, library: library)
                count += 1
                events += cassette.events.count
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        Console.line(
            String(
                format: "bench: %d cassettes (%d events) replayed in %.2f s: %.1f cassettes/s, %.0f events/s",
                count, events, seconds, Double(count) / seconds, Double(events) / seconds))
    }

    /// The hint a divergence report ends with when the seed may be why: a divergence at a random
    /// draw, or a request or crypto divergence in a cassette that holds no random draws to serve
    /// (a proxy's) and names no seed. Nil otherwise.
    static func seedHint(kind: String?, cassette: Cassette) -> String? {
        let seed = cassette.scenario.seed
        let holdsDraws = cassette.events.contains { if case .random = $0.payload { true } else { false } }
        let seedText = seed.map { "with --seed \(ShellWords.quote($0))" } ?? "without a seed"
        if kind == "randomMismatch" {
            return
                "  hint: a random draw diverged: the cassette was recorded \(seedText); a run seeded otherwise draws other values "
                + "(`record`, `run` and `proxy` take --seed, else the script's seed, else \"\(ScenarioCommandSupport.defaultSeed)\")"
        }
        if ["requestMismatch", "cryptoMismatch"].contains(kind), !holdsDraws, seed == nil {
            return
                "  hint: the cassette holds no random draws and no seed, so replay draws its own; if the client was seeded, "
                + "record again with its --seed (`proxy --scenario FILE --seed S`)"
        }
        return nil
    }

    /// One testcase per cassette: failed with the divergence report the command prints, an error
    /// when the cassette could not be read (`kind` "cassette: ...").
    static func junitReport(_ timed: [(ReplayOutcome, Duration)], suite: String = "replay") -> JUnitReport {
        JUnitReport(
            name: suite,
            testCases: timed.map { outcome, duration in
                let outcomeText: JUnitReport.TestCase.Outcome =
                    switch outcome.failure {
                    case nil where outcome.isPartial: .failed(outcome.description, type: "partial")
                    case nil: .passed
                    case let failure? where outcome.kind?.hasPrefix("cassette: ") == true:
                        .error(failure, type: outcome.kind)
                    case let failure?: .failed(failure, type: outcome.kind)
                    }
                return JUnitReport.TestCase(
                    name: outcome.path, classname: "replay", duration: duration, outcome: outcomeText)
            })
    }

    static func table(_ outcomes: [ReplayOutcome]) -> String {
        let rows =
            [["cassette", "scenario", "events", "replay"]]
            + outcomes.map { outcome in
                [
                    (outcome.path as NSString).lastPathComponent, outcome.scenario ?? "-", String(outcome.events),
                    outcome.passed ? "pass" : outcome.isPartial ? "partial" : "FAIL (\(outcome.kind ?? "?"))",
                ]
            }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            "| "
                + zip(row, widths).enumerated().map { index, pair in
                    index == 2
                        ? String(repeating: " ", count: pair.1 - pair.0.count) + pair.0
                        : pair.0 + String(repeating: " ", count: pair.1 - pair.0.count)
                }.joined(separator: " | ") + " |"
        }
        let rule =
            "|"
            + widths.enumerated().map { index, width in
                index == 2 ? String(repeating: "-", count: width + 1) + ":" : String(repeating: "-", count: width + 2)
            }.joined(separator: "|") + "|"
        return ([line(rows[0]), rule] + rows.dropFirst().map(line)).joined(separator: "\n")
    }

    /// Files, with directories expanded to their `.json` files (sorted).
    static func expand(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            guard Directories.isFolder(path) else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { (path as NSString).appendingPathComponent($0) }
        }
    }
}
