import ArgumentParser
import FlowRecording
import Foundation
import MilagroRecording
import ReferenceBackend
import MPinSDK
import Scenarios

/// `mpin-workbench run SCENARIO`: runs a scenario live, without a cassette.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario live (no cassette) and print each step's result.",
        discussion: """
            Against --backend URL, or the reference backend started in-process (--embedded, the default). \
            --junit FILE also writes a JUnit XML report: one testcase for the scenario, its step lines \
            as output, failed with the failing step's report, an error when the script cannot be read \
            or the run cannot start.

            Exit status: 0 when every step passes, 1 when one fails, 2 when the script cannot be read \
            or the usage was wrong.
            """
    )

    @Argument(help: "The scenario script (YAML or JSON).")
    var scenario: String

    @Option(help: "A live backend URL.")
    var backend: String?

    @Flag(help: "Start the reference backend in-process (the default).")
    var embedded = false

    @Option(help: "Seed of the SDK's randomness and of the embedded backend (default: system randomness against --backend).")
    var seed: String?

    @Option(help: "With the embedded backend: whose answers it gives instead of the script's profile, default (the workbench's), milagro-oss (the open-source Milagro server's) or milagro-hosted-v3 (the backend of the C++ SDK core's recorded unit tests).")
    var profile: BackendProfile?

    @OptionGroup var junit: JUnitOption

    func validate() throws {
        if backend != nil && embedded { throw ValidationError("Give --backend URL or --embedded, not both.") }
        if backend != nil && profile != nil { throw ValidationError("--profile sets up the embedded backend; a --backend URL answers as it does.") }
    }

    func run() throws {
        try junit.check()
        let timer = ContinuousClock()
        let start = timer.now
        let script: ScenarioScript
        do {
            script = try ScriptParser.parse(file: scenario)
        } catch {
            ScenarioCommandSupport.error(error.description)
            try junit.write(junitReport(.error(error.description, type: "script"), duration: timer.now - start))
            throw ExitCode(2)
        }
        let backendURL = backend
        let seed = seed
        let profile = profile
        let result: Result<[StepOutcome], ScenarioFailure>
        do {
            result = try ScenarioCommandSupport.blocking {
                if let backendURL {
                    let random: any RandomSource = seed.map { SeededRandomSource(seed: $0) } ?? SystemRandomSource()
                    do throws(ScenarioFailure) {
                        return .success(try await ScenarioSession.run(script, backendURL: backendURL, transport: ScenarioCommandSupport.curl(),
                                                                      random: random, clock: SystemClock(), seed: seed))
                    } catch { return .failure(error) }
                }
                let chosen = seed ?? script.seed ?? "workbench"
                let session = try await EmbeddedSession.start(script, seed: chosen, profile: profile)
                let clock = session.clock
                let backend = session.backend
                defer { Task { await session.stop() } }
                do throws(ScenarioFailure) {
                    return .success(try await ScenarioSession.run(script, backendURL: ScenarioCommandSupport.stableOrigin,
                                                                  transport: session.transport, random: SeededRandomSource(seed: chosen),
                                                                  clock: clock, advanceClock: { clock.advance(milliseconds: $0) },
                                                                  canWait: true, seed: chosen, heldRequests: { backend.heldLogins }))
                } catch { return .failure(error) }
            }
        } catch {
            // The run could not start (the embedded backend): reported as before, and as an error.
            try junit.write(junitReport(.error("\(error)", type: nil), duration: timer.now - start))
            throw error
        }
        switch result {
        case .success(let outcomes):
            let lines = outcomes.map(Self.line) + ["\(script.name): \(outcomes.count) steps passed"]
            lines.forEach { print($0) }
            try junit.write(junitReport(.passed, duration: timer.now - start, output: lines.joined(separator: "\n")))
        case .failure(let failure):
            ScenarioCommandSupport.error(failure.description)
            try junit.write(junitReport(.failed(failure.description, type: nil), duration: timer.now - start))
            throw ExitCode(1)
        }
    }

    /// The report of `--junit`: one testcase, the scenario file.
    func junitReport(_ outcome: JUnitReport.TestCase.Outcome, duration: Duration, output: String? = nil) -> JUnitReport {
        JUnitReport(name: "run", testCases: [JUnitReport.TestCase(name: scenario, classname: "run", duration: duration, outcome: outcome,
                                                                  output: output)])
    }

    static func line(_ outcome: StepOutcome) -> String {
        var text = "step \(outcome.step.index) \(outcome.step.name): \(outcome.status)"
        if let state = outcome.userState { text += ", user \(state)" }
        let shown = outcome.outputs.filter { !$0.value.isEmpty && $0.value.count <= 40 }.prefix(4)
        if !shown.isEmpty { text += " [" + shown.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + "]" }
        return text
    }
}
