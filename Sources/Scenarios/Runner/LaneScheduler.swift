import FlowRecording
import Synchronization

/// Orders the steps of a script that run at the same time, so that a recording of them is
/// deterministic and a replay makes their events in the recorded order.
///
/// A step with `background: NAME` runs in its own task (a lane). The rules:
/// 1. A new lane runs alone until it is *settled*: finished, or waiting for a response that the
///    other side holds (the server holds the phone's access-number login until the browser has
///    logged in, docs/protocol.md §8.2).
/// 2. Before each foreground step every lane is settled again.
/// 3. While a foreground step runs, a lane whose held response arrives waits for the step to end
///    before it goes on, so its later events come after the step's.
///
/// Whether a response is held is asked of `held`, the number of requests the other side holds
/// (the embedded backend's held logins; the replayer's held steps). With no such signal (a live
/// backend) a request in flight for `settleTime` counts as held.
final class LaneScheduler: Sendable {
    private struct Lane {
        var step: ScenarioStep
        var inFlight = 0
        /// When the oldest request in flight was sent.
        var since: ContinuousClock.Instant?
        var finished = false
        /// Waiting for the foreground step to end before going on.
        var parked = false
    }

    private struct State {
        var lanes: [Int: Lane] = [:]
        var foregroundRunning = false
        var parked: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let held: (@Sendable () -> Int)?
    let settleTime: Duration
    /// The longest a lane may take to settle, or an awaited lane to finish.
    let limit: Duration

    init(held: (@Sendable () -> Int)?, settleTime: Duration = .milliseconds(500), limit: Duration = .seconds(120)) {
        self.held = held
        self.settleTime = settleTime
        self.limit = limit
    }

    var hasLanes: Bool { state.withLock { !$0.lanes.isEmpty } }

    func started(_ step: ScenarioStep) {
        state.withLock { $0.lanes[step.index] = Lane(step: step) }
    }

    func finished(_ step: ScenarioStep) {
        state.withLock { $0.lanes[step.index]?.finished = true }
    }

    func isFinished(_ step: ScenarioStep) -> Bool {
        state.withLock { $0.lanes[step.index]?.finished ?? true }
    }

    /// Forgets an awaited lane.
    func remove(_ step: ScenarioStep) {
        _ = state.withLock { $0.lanes.removeValue(forKey: step.index) }
    }

    /// A request of the current task is being sent.
    func sending() {
        guard let step = ConcurrentStep.current else { return }
        state.withLock { state in
            guard var lane = state.lanes[step.index] else { return }
            if lane.inFlight == 0 { lane.since = .now }
            lane.inFlight += 1
            state.lanes[step.index] = lane
        }
    }

    /// A response (or transport error) of the current task has come; a lane then waits while a
    /// foreground step runs (rule 3).
    func received() async {
        guard let step = ConcurrentStep.current else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goOn = state.withLock { state -> Bool in
                guard var lane = state.lanes[step.index] else { return true }
                lane.inFlight -= 1
                if lane.inFlight == 0 { lane.since = nil }
                defer { state.lanes[step.index] = lane }
                guard state.foregroundRunning else { return true }
                lane.parked = true
                state.parked.append(continuation)
                return false
            }
            if goOn { continuation.resume() }
        }
    }

    /// Whether every lane is finished or held (rule 1), and how many are not finished.
    private func settled(_ state: State) -> Bool {
        let open = state.lanes.values.filter { !$0.finished }
        guard !open.isEmpty else { return true }
        guard open.allSatisfy({ $0.inFlight > 0 && !$0.parked }) else { return false }
        if let held { return held() >= open.count }
        return open.allSatisfy { lane in lane.since.map { $0.duration(to: .now) >= settleTime } ?? false }
    }

    /// Waits until every lane is settled, then marks a foreground step as running (atomically, so
    /// that a lane answered from then on waits for the step). Nil when the limit passed first.
    func beginForeground() async -> ScenarioStep? {
        let deadline = ContinuousClock.now + limit
        while true {
            let stuck: ScenarioStep? = state.withLock { state in
                if settled(state) {
                    state.foregroundRunning = true
                    return nil
                }
                return state.lanes.values.filter { !$0.finished }.min { $0.step.index < $1.step.index }?.step
            }
            guard let stuck else { return nil }
            if ContinuousClock.now >= deadline { return stuck }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The foreground step has ended: parked lanes go on.
    func endForeground() {
        let resumed: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.foregroundRunning = false
            for index in state.lanes.keys { state.lanes[index]?.parked = false }
            defer { state.parked = [] }
            return state.parked
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Whether every unfinished lane is held (nothing but the other side can move them on).
    func allHeld() -> Bool {
        state.withLock { state in
            let open = state.lanes.values.filter { !$0.finished }
            guard !open.isEmpty, let held else { return false }
            return open.allSatisfy { $0.inFlight > 0 && !$0.parked } && held() >= open.count
        }
    }
}
