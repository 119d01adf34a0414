import FlowRecording
import MPinSDK

/// What one step did: its status (an SDK status name, or an HTTP status for browser and admin
/// steps), the user's state afterwards and the outputs.
public struct StepOutcome: Sendable {
    public var step: ScriptStep
    public var status: String
    public var message: String
    public var userState: String?
    public var outputs: [(name: String, value: String)]

    public func output(_ name: String) -> String? { outputs.first { $0.name == name }?.value }
}

/// Runs a script's steps in order in an environment, checking each step's expectation.
///
/// The SDK is a fresh `MPinClient` (memory storage) over the environment's `sdk` transport,
/// random source and clock, observed by a `CassetteObserver`; browser and admin steps are HTTP
/// requests through their own actor's transport. The first unmet expectation stops the run with a
/// `ScenarioFailure` naming the file, line and step.
public struct ScenarioRunner {
    public let script: ScenarioScript
    public let environment: ScenarioEnvironment

    public init(script: ScenarioScript, environment: ScenarioEnvironment) {
        self.script = script
        self.environment = environment
    }

    var file: String { script.path ?? script.name }

    /// Runs every step; returns their outcomes.
    public func run() async throws(ScenarioFailure) -> [StepOutcome] {
        let observer = CassetteObserver(sink: environment.sink)
        let flavour: MPinClient.Flavour = script.flavour == "mfa-platform" ? .mfaPlatform : .milagro
        let client = MPinClient(transport: environment.transport(.sdk), storage: MemoryStorage(), random: environment.random,
                                clock: environment.clock, observer: observer, options: .init(flavour: flavour))
        var state = RunState(variables: Variables(environment.variables.merging(["backend": environment.backendURL]) { $1 }))
        let device = DeviceActor(environment: environment)
        var outcomes: [StepOutcome] = []
        defer { environment.beginStep(nil) }
        for step in script.steps {
            environment.beginStep(step.scenarioStep)
            var arguments: [String: String] = [:]
            for (name, value) in step.arguments {
                switch state.variables.expand(value) {
                case .success(let text): arguments[name] = text
                case .failure(let error): throw failure(step, "argument \(name): \(error)")
                }
            }
            let outcome: StepOutcome
            switch step.actor {
            case "sdk":
                outcome = try await sdkStep(step, arguments, client: client, observer: observer, state: &state)
            case "device":
                outcome = try await deviceStep(step, arguments, actor: device)
            case "clock":
                guard environment.canWait else {
                    throw failure(step, "wait needs a frozen clock: record against --embedded (a live backend keeps its own time)")
                }
                guard let seconds = Int64(arguments["seconds"] ?? "") else { throw failure(step, "seconds should be a whole number") }
                environment.advanceClock(seconds * 1000)
                outcome = StepOutcome(step: step, status: "OK", message: "", userState: nil, outputs: [])
            default:
                outcome = try await httpStep(step, arguments, actor: EventActor(rawValue: step.actor))
            }
            try check(step, outcome, state.variables)
            for (variable, output) in step.capture {
                guard let value = outcome.output(output) else {
                    throw failure(step, "cannot capture $\(variable): the step has no output \"\(output)\"; it has "
                        + (outcome.outputs.isEmpty ? "none" : outcome.outputs.map(\.name).joined(separator: ", ")))
                }
                state.variables[variable] = value
            }
            outcomes.append(outcome)
        }
        return outcomes
    }

    struct RunState {
        var variables: Variables
        var users: [String: User] = [:]
        var lastUser: User?
    }

    func failure(_ step: ScriptStep, _ message: String, line: Int? = nil) -> ScenarioFailure {
        ScenarioFailure(ScriptError(file: file, line: line ?? step.line, stepIndex: step.index, stepName: step.name, message: message))
    }

    // MARK: - Expectations

    func check(_ step: ScriptStep, _ outcome: StepOutcome, _ variables: Variables) throws(ScenarioFailure) {
        let line = step.expect.line
        let wantedStatus = step.expect.status ?? (["sdk", "clock", "device"].contains(step.actor) ? "OK" : "200")
        if wantedStatus != "any" && wantedStatus != outcome.status {
            throw failure(step, "expected status \(wantedStatus), got \(outcome.status)"
                + (outcome.message.isEmpty ? "" : " (\(outcome.message))"), line: line)
        }
        if let state = step.expect.state, state != (outcome.userState ?? "none") {
            throw failure(step, "expected the user in state \(state), it is \(outcome.userState ?? "none")", line: line)
        }
        for (name, raw) in step.expect.values {
            let wanted: String
            switch variables.expand(raw) {
            case .success(let text): wanted = text
            case .failure(let error): throw failure(step, "expected \(name): \(error)", line: line)
            }
            let actual: String?
            if name.hasSuffix("#count") {
                let base = String(name.dropLast(6))
                actual = String(outcome.outputs.filter { $0.name == base }.count)
            } else {
                let all = outcome.outputs.filter { $0.name == name }.map(\.value)
                actual = all.isEmpty ? nil : all.joined(separator: "\n")
            }
            guard let actual else {
                throw failure(step, "expected an output \"\(name)\"; the step has "
                    + (outcome.outputs.isEmpty ? "none" : outcome.outputs.map(\.name).joined(separator: ", ")), line: line)
            }
            if actual != wanted {
                throw failure(step, "expected \(name) = \"\(wanted)\", got \"\(actual)\"", line: line)
            }
        }
    }
}
