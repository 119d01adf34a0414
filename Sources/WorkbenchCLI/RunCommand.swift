import ArgumentParser
import FlowRecording
import Foundation
import MPinSDK
import MilagroRecording
import ReferenceBackend
import Scenarios

/// `mpin-workbench run SCENARIO`: runs a scenario live, without a cassette.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario live (no cassette) and print each step's result.",
        discussion: """
            SCENARIO is a script file or the name (or alias) of a bundled scenario: under \
            $MPIN_WORKBENCH_SCENARIOS, else Scenarios/ here, else the Scenarios/ (or \
            share/mpin-workbench/Scenarios/) beside the program. Against --backend URL, or the reference backend started \
            in-process (the default; --embedded says so explicitly). On the embedded backend the seed \
            is --seed, else the script's, else "\(ScenarioCommandSupport.defaultSeed)"; against \
            --backend the SDK draws from the system's generator unless --seed is given (with a \
            warning), as `record` does. --junit FILE also writes a JUnit XML report: one testcase for the scenario, its \
            step lines as output, failed with the failing step's report, an error when the script \
            cannot be read or the run cannot start.

            Exit status: 0 when every step passes, 1 when one fails, 2 when the script cannot be read \
            or the usage was wrong.

            Examples:
              mpin-workbench run authenticate
              mpin-workbench run Scenarios/authenticate.yaml --profile milagro-oss \\
                  --junit run.xml
              mpin-workbench run authenticate --backend http://127.0.0.1:8005 \\
                  --flavour milagro --seed s1
            """
    )

    @Argument(
        help: "The scenario: a script file (YAML or JSON) or a bundled scenario's name.",
        completion: .custom { _, _, prefix in ScenarioCommandSupport.completions(prefix) })
    var scenario: String

    @Option(help: "A live backend URL.")
    var backend: String?

    @Flag(help: "Start the reference backend in-process: the default without --backend, accepted to say so.")
    var embedded = false

    @Option(help: ArgumentHelp(ScenarioCommandSupport.seedHelp))
    var seed: String?

    @OptionGroup var overrides: ScenarioBackendOption

    @OptionGroup var junit: JUnitOption

    /// `--profile`, as before it joined `--flavour` in `ScenarioBackendOption`.
    var profile: BackendProfile? { overrides.profile }

    func validate() throws {
        if backend != nil && embedded { throw ValidationError("Give --backend URL or --embedded, not both.") }
        try overrides.check(backend: backend)
    }

    func run() async throws {
        try junit.check()
        let timer = ContinuousClock()
        let start = timer.now
        let script: ScenarioScript
        do {
            script = overrides.apply(to: try ScenarioCommandSupport.script(scenario))
        } catch {
            try junit.write(junitReport(.error(error.description, type: "script"), duration: timer.now - start))
            throw CommandFailure(error.description)
        }
        let randomness = ScenarioCommandSupport.randomness(seed, script: script, live: backend)
        if let warning = randomness.warning { Console.error(warning + "\n") }
        let result: Result<[StepOutcome], ScenarioFailure>
        do {
            result = try await Self.run(script, seed: randomness.seed, random: randomness.random, backendURL: backend)
        } catch {
            // The run could not start (the embedded backend): reported as before, and as an error.
            try junit.write(junitReport(.error("\(error)", type: nil), duration: timer.now - start))
            throw error
        }
        switch result {
        case .success(let outcomes):
            let lines = outcomes.map(Self.line) + ["\(script.name): \(outcomes.count) steps passed"]
            for line in lines { Console.line(line) }
            try junit.write(junitReport(.passed, duration: timer.now - start, output: lines.joined(separator: "\n")))
        case .failure(let failure):
            Console.failure(failure.description)
            try junit.write(junitReport(.failed(failure.description, type: nil), duration: timer.now - start))
            throw ExitCode.failure
        }
    }

    /// Runs `script` against `backendURL`, else the embedded backend; throws only when the run
    /// cannot start.
    /// The SDK draws from `random` against a live backend; the embedded one is seeded from `seed`.
    static func run(_ script: ScenarioScript, seed: String?, random: any RandomSource, backendURL: String?) async throws
        -> Result<[StepOutcome], ScenarioFailure>
    {
        if let backendURL {
            do throws(ScenarioFailure) {
                return .success(
                    try await ScenarioSession.run(
                        script, backendURL: backendURL, transport: ScenarioCommandSupport.curl(),
                        random: random, clock: SystemClock(), seed: seed))
            } catch { return .failure(error) }
        }
        let seed = seed ?? ScenarioCommandSupport.seed(nil, script: script)
        let session = try await EmbeddedSession.start(script, seed: seed)
        let clock = session.clock
        let backend = session.backend
        let result: Result<[StepOutcome], ScenarioFailure>
        do throws(ScenarioFailure) {
            result = .success(
                try await ScenarioSession.run(
                    script, backendURL: ScenarioCommandSupport.stableOrigin,
                    transport: session.transport, random: SeededRandomSource(seed: seed),
                    clock: clock, advanceClock: { clock.advance(milliseconds: $0) },
                    canWait: true, seed: seed, heldRequests: { backend.heldLogins }))
        } catch { result = .failure(error) }
        await session.stop()
        return result
    }

    /// The report of `--junit`: one testcase, the scenario file.
    func junitReport(_ outcome: JUnitReport.TestCase.Outcome, duration: Duration, output: String? = nil) -> JUnitReport
    {
        JUnitReport(
            name: "run",
            testCases: [
                JUnitReport.TestCase(
                    name: scenario, classname: "run", duration: duration, outcome: outcome,
                    output: output)
            ])
    }

    static func line(_ outcome: StepOutcome) -> String {
        var text = "step \(outcome.step.index) \(outcome.step.name): \(outcome.status)"
        if let state = outcome.userState { text += ", user \(state)" }
        let shown = outcome.outputs.filter { !$0.value.isEmpty && $0.value.count <= 40 }.prefix(4)
        if !shown.isEmpty { text += " [" + shown.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + "]" }
        return text
    }
}
