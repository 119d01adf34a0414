import ArgumentParser
import Foundation
import ReferenceBackend
import MPinSDK
import Scenarios

/// `mpin-workbench run SCENARIO`: runs a scenario live, without a cassette.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario live (no cassette) and print each step's result.",
        discussion: "Against --backend URL, or the reference backend started in-process (--embedded, the default)."
    )

    @Argument(help: "The scenario script (YAML or JSON).")
    var scenario: String

    @Option(help: "A live backend URL.")
    var backend: String?

    @Flag(help: "Start the reference backend in-process (the default).")
    var embedded = false

    @Option(help: "Seed of the SDK's randomness and of the embedded backend (default: system randomness against --backend).")
    var seed: String?

    @Option(help: "With the embedded backend: whose answers it gives instead of the script's profile, default (the workbench's) or milagro-oss (the open-source Milagro server's).")
    var profile: BackendProfile?

    func validate() throws {
        if backend != nil && embedded { throw ValidationError("Give --backend URL or --embedded, not both.") }
        if backend != nil && profile != nil { throw ValidationError("--profile sets up the embedded backend; a --backend URL answers as it does.") }
    }

    func run() throws {
        let script = try ScenarioCommandSupport.readScript(scenario)
        let backendURL = backend
        let seed = seed
        let profile = profile
        let result: Result<[StepOutcome], ScenarioFailure> = try ScenarioCommandSupport.blocking {
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
        switch result {
        case .success(let outcomes):
            for outcome in outcomes { print(Self.line(outcome)) }
            print("\(script.name): \(outcomes.count) steps passed")
        case .failure(let failure):
            ScenarioCommandSupport.error(failure.description)
            throw ExitCode(1)
        }
    }

    static func line(_ outcome: StepOutcome) -> String {
        var text = "step \(outcome.step.index) \(outcome.step.name): \(outcome.status)"
        if let state = outcome.userState { text += ", user \(state)" }
        let shown = outcome.outputs.filter { !$0.value.isEmpty && $0.value.count <= 40 }.prefix(4)
        if !shown.isEmpty { text += " [" + shown.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + "]" }
        return text
    }
}
