import FlowRecording
import MPinSDK
import MilagroRecording

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
package struct ScenarioRunner: Sendable {
    package let script: ScenarioScript
    package let environment: ScenarioEnvironment

    package init(script: ScenarioScript, environment: ScenarioEnvironment) {
        self.script = script
        self.environment = environment
    }

    var file: String { script.path ?? script.name }

    /// Runs every step; returns their outcomes.
    ///
    /// Steps run one after the other, except a step with `background: NAME`, which runs in its own
    /// task until a later `await: NAME`; `LaneScheduler` orders what the two do (see there).
    package func run() async throws(ScenarioFailure) -> [StepOutcome] {
        let scheduler = LaneScheduler(held: environment.heldRequests)
        var environment = environment
        let transport = environment.transport
        environment.transport = { actor in LaneTransport(base: transport(actor), scheduler: scheduler) }
        return try await ScenarioRunner(script: script, environment: environment).runSteps(scheduler)
    }

    private func runSteps(_ scheduler: LaneScheduler) async throws(ScenarioFailure) -> [StepOutcome] {
        let observer = CassetteObserver(sink: environment.sink)
        let flavour = MPinClient.Flavour(script.flavour)
        let client = MPinClient(
            transport: environment.transport(.sdk), storage: MemoryStorage(), random: environment.random,
            clock: environment.clock, observer: observer, options: .init(flavour: flavour))
        let scriptVariables = Dictionary(script.variables.map { ($0.name, $0.value) }) { $1 }
        var state = RunState(
            variables: Variables(
                scriptVariables.merging(environment.variables) { $1 }
                    .merging(["backend": environment.backendURL]) { $1 }))
        // `checks: continue`: unmet expectations are kept here and the run goes on.
        var unmet: [ScenarioFailure] = []
        func checking(_ body: () throws(ScenarioFailure) -> Void) throws(ScenarioFailure) {
            do throws(ScenarioFailure) {
                try body()
            } catch {
                guard script.checks == .continue else { throw error }
                unmet.append(error)
            }
        }
        let device = DeviceActor(environment: environment)
        var outcomes: [StepOutcome] = []
        var lanes: [String: (step: ScriptStep, task: Task<Result<StepOutcome, ScenarioFailure>, Never>)] = [:]
        defer {
            environment.beginStep(nil)
            environment.releaseHolds()
            for lane in lanes.values { lane.task.cancel() }
        }
        for step in script.steps {
            if scheduler.hasLanes, let stuck = await scheduler.beginForeground() {
                throw failure(
                    stuck.index,
                    "runs in the background and neither finished nor waited on a held response within "
                        + "\(scheduler.limit); the steps after it cannot start")
            }
            defer { scheduler.endForeground() }
            environment.beginStep(step.scenarioStep)
            if step.isAwait {
                guard let lane = lanes.removeValue(forKey: step.action) else {
                    throw failure(step, "no background step \(step.action)")
                }
                scheduler.endForeground()
                let outcome = try await awaitLane(lane.step, lane.task, scheduler: scheduler, at: step)
                // The background step's expectations and the await step's, checked now; the await
                // step's status and state win where both give one.
                let expect = Expectation(
                    status: step.expect.status ?? lane.step.expect.status,
                    state: step.expect.state ?? lane.step.expect.state,
                    values: lane.step.expect.values + step.expect.values,
                    line: step.expect.line ?? lane.step.expect.line)
                try checking { () throws(ScenarioFailure) in
                    try check(
                        ScriptStep(
                            index: step.index, name: step.name, kind: lane.step.kind, arguments: [], expect: expect,
                            capture: [], line: step.line), outcome, state.variables)
                }
                for (variable, output) in lane.step.capture + step.capture {
                    state.variables[variable] = try captured(output, variable, from: outcome, at: step)
                }
                outcomes.append(outcome)
                continue
            }
            let arguments = try expand(step, state.variables)
            let context = try expandContext(step, state.variables)
            if let name = step.background {
                let snapshot = state
                scheduler.started(step.scenarioStep)
                scheduler.endForeground()
                let task = Task { [self] () async -> Result<StepOutcome, ScenarioFailure> in
                    await ConcurrentStep.$current.withValue(step.scenarioStep) {
                        await ExchangeContext.$current.withValue(context) {
                            var laneState = snapshot
                            do throws(ScenarioFailure) {
                                return .success(
                                    try await perform(
                                        step, arguments, client: client, observer: observer, device: device,
                                        state: &laneState))
                            } catch {
                                return .failure(error)
                            }
                        }
                    }
                }
                lanes[name] = (
                    step,
                    Task {
                        let result = await task.value
                        scheduler.finished(step.scenarioStep)
                        return result
                    }
                )
                continue
            }
            var stepState = state
            let performed = await ExchangeContext.$current.withValue(context) {
                () async -> Result<StepOutcome, ScenarioFailure> in
                do throws(ScenarioFailure) {
                    return .success(
                        try await perform(
                            step, arguments, client: client, observer: observer, device: device, state: &stepState))
                } catch {
                    return .failure(error)
                }
            }
            state = stepState
            let outcome = try performed.get()
            try checking { () throws(ScenarioFailure) in try check(step, outcome, state.variables) }
            for (variable, output) in step.capture {
                state.variables[variable] = try captured(output, variable, from: outcome, at: step)
            }
            outcomes.append(outcome)
        }
        if var first = unmet.first {
            first.laterChecks = unmet.dropFirst().map(\.error)
            throw first
        }
        return outcomes
    }

    /// The step's request context with its variables expanded (nil when it has none).
    private func expandContext(_ step: ScriptStep, _ variables: Variables) throws(ScenarioFailure) -> String? {
        guard let context = step.context else { return nil }
        switch variables.expand(context) {
        case .success(let text): return text
        case .failure(let error): throw failure(step, "context: \(error)")
        }
    }

    /// The step's arguments with their variables expanded.
    private func expand(_ step: ScriptStep, _ variables: Variables) throws(ScenarioFailure) -> [String: String] {
        var arguments: [String: String] = [:]
        for (name, value) in step.arguments {
            switch variables.expand(value) {
            case .success(let text): arguments[name] = text
            case .failure(let error): throw failure(step, "argument \(name): \(error)")
            }
        }
        return arguments
    }

    /// Runs one step of any actor.
    private func perform(
        _ step: ScriptStep, _ arguments: [String: String], client: MPinClient, observer: CassetteObserver,
        device: DeviceActor, state: inout RunState
    ) async throws(ScenarioFailure) -> StepOutcome {
        switch step.kind {
        case .action(.sdk(let action)):
            return try await sdkStep(step, action, arguments, client: client, observer: observer, state: &state)
        case .action(.device(let action)):
            return try await deviceStep(step, action, arguments, actor: device)
        case .action(.clock(.wait)):
            guard environment.canWait else {
                throw failure(
                    step, "wait needs a frozen clock: record against --embedded (a live backend keeps its own time)")
            }
            let milliseconds: Int64
            switch ScriptLimits.waitMilliseconds(arguments["seconds"] ?? "") {
            case .success(let value): milliseconds = value
            case .failure(let error): throw failure(step, error.description)
            }
            // Within range, and the clock stays within the years a start time may name.
            let latest = ScriptLimits.startTime.upperBound
            guard script.startTime <= latest - state.clockAdvanced - milliseconds else {
                throw failure(
                    step,
                    "the clock would pass 9999-12-31T23:59:59.999Z (start time \(script.startTime) ms, "
                        + "\(state.clockAdvanced / 1000) s waited before this step)")
            }
            state.clockAdvanced += milliseconds
            environment.advanceClock(milliseconds)
            return StepOutcome(step: step, status: "OK", message: "", userState: nil, outputs: [])
        case .action(.browser(let action)):
            return try await httpStep(step, .browser(action), arguments)
        case .action(.admin(let action)):
            return try await httpStep(step, .admin(action), arguments)
        case .await(let lane):
            // `runSteps` waits for background steps itself; an await step is never performed.
            throw failure(step, "await \(lane) is not an action")
        }
    }

    /// Waits for a background step to finish. When every background step is held and only the
    /// other side could move them on, `releaseHolds` tells a replay so (a recording waits for the
    /// server, which answers at the latest when its hold times out).
    private func awaitLane(
        _ lane: ScriptStep, _ task: Task<Result<StepOutcome, ScenarioFailure>, Never>, scheduler: LaneScheduler,
        at step: ScriptStep
    ) async throws(ScenarioFailure) -> StepOutcome {
        let deadline = ContinuousClock.now + scheduler.limit
        while !scheduler.isFinished(lane.scenarioStep) {
            if scheduler.allHeld() { environment.releaseHolds() }
            if ContinuousClock.now >= deadline {
                throw failure(step, "step \(lane.index) (line \(lane.line)) did not finish within \(scheduler.limit)")
            }
            await scheduler.waitForChange(until: deadline)
        }
        scheduler.remove(lane.scenarioStep)
        switch await task.value {
        case .success(let outcome): return outcome
        case .failure(let error): throw error
        }
    }

    /// The value of a step's output for `$variable`.
    private func captured(_ output: String, _ variable: String, from outcome: StepOutcome, at step: ScriptStep)
        throws(ScenarioFailure) -> String
    {
        guard let value = outcome.output(output) else {
            throw failure(
                step,
                "cannot capture $\(variable): the step has no output \"\(output)\"; it has "
                    + (outcome.outputs.isEmpty ? "none" : outcome.outputs.map(\.name).joined(separator: ", ")))
        }
        return value
    }

    struct RunState {
        var variables: Variables
        var users: [String: User] = [:]
        var lastUser: User?
        /// Milliseconds the `clock: wait` steps have moved the clock so far.
        var clockAdvanced: Int64 = 0
    }

    func failure(_ step: ScriptStep, _ message: String, line: Int? = nil) -> ScenarioFailure {
        ScenarioFailure(
            ScriptError(
                file: file, line: line ?? step.line, stepIndex: step.index, stepName: step.name, message: message))
    }

    func failure(_ index: Int, _ message: String) -> ScenarioFailure {
        failure(script.steps[index], message)
    }

    // MARK: - Expectations

    func check(_ step: ScriptStep, _ outcome: StepOutcome, _ variables: Variables) throws(ScenarioFailure) {
        let line = step.expect.line
        let wantedStatus = step.expect.status ?? step.stepAction?.actor.successStatus ?? "OK"
        if wantedStatus.hasPrefix("!") {
            // `!STATUS`: any status but that one (BOOST_CHECK_NE in the SDK core's tests).
            if outcome.status == String(wantedStatus.dropFirst()) {
                throw failure(
                    step,
                    "expected a status other than \(wantedStatus.dropFirst()), got it"
                        + (outcome.message.isEmpty ? "" : " (\(outcome.message))"), line: line)
            }
        } else if wantedStatus != "any" && wantedStatus != outcome.status {
            throw failure(
                step,
                "expected status \(wantedStatus), got \(outcome.status)"
                    + (outcome.message.isEmpty ? "" : " (\(outcome.message))"), line: line)
        }
        if let state = step.expect.state, state.rawValue != (outcome.userState ?? "none") {
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
                throw failure(
                    step,
                    "expected an output \"\(name)\"; the step has "
                        + (outcome.outputs.isEmpty ? "none" : outcome.outputs.map(\.name).joined(separator: ", ")),
                    line: line)
            }
            if actual != wanted {
                throw failure(step, "expected \(name) = \"\(wanted)\", got \"\(actual)\"", line: line)
            }
        }
    }
}
