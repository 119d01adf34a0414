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
///
/// Waiting is woken, not polled: every change of a lane resumes the task that waits for one
/// (`waitForChange`), and a lane in flight without a `held` signal is looked at again when its
/// `settleTime` has passed. Only the other side's count has no signal of its own: while it is all
/// that a wait needs, it is read again every `heldInterval`.
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
        /// The task waiting for a change of the lanes (`waitForChange`), if one is.
        var changeWaiter: CheckedContinuation<Void, Never>?
        /// A change came while no task waited: the next wait returns at once.
        var changed = false
    }

    /// How often the other side's count of held requests is read while a wait needs nothing else.
    static let heldInterval: Duration = .milliseconds(1)

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
        changing { $0.lanes[step.index] = Lane(step: step) }
    }

    func finished(_ step: ScenarioStep) {
        changing { $0.lanes[step.index]?.finished = true }
    }

    func isFinished(_ step: ScenarioStep) -> Bool {
        state.withLock { $0.lanes[step.index]?.finished ?? true }
    }

    /// Forgets an awaited lane.
    func remove(_ step: ScenarioStep) {
        changing { _ = $0.lanes.removeValue(forKey: step.index) }
    }

    /// A request of the current task is being sent.
    func sending() {
        guard let step = ConcurrentStep.current else { return }
        changing { state in
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
            let (goOn, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                guard var lane = state.lanes[step.index] else { return (true, nil) }
                lane.inFlight -= 1
                if lane.inFlight == 0 { lane.since = nil }
                defer { state.lanes[step.index] = lane }
                let waiter = Self.takeWaiter(&state)
                guard state.foregroundRunning else { return (true, waiter) }
                lane.parked = true
                state.parked.append(continuation)
                return (false, waiter)
            }
            waiter?.resume()
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
            await waitForChange(until: deadline)
        }
    }

    /// Waits until a lane changes, or until the lanes need looking at again although none did (a
    /// lane in flight reaches `settleTime`; the other side's count is due to be read), or until
    /// `deadline`, whichever comes first. It may return early; the caller checks again. One task
    /// waits at a time: the runner's, between its steps.
    func waitForChange(until deadline: ContinuousClock.Instant) async {
        let wake = state.withLock { state in min(deadline, recheck(state) ?? deadline) }
        let timer = Task { [self] in
            guard (try? await Task.sleep(until: wake, clock: .continuous)) != nil else { return }
            state.withLock { Self.takeWaiter(&$0) }?.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.changed {
                    state.changed = false
                    return true
                }
                state.changeWaiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
    }

    /// When the lanes need looking at again without a change: nil when only a change can settle them.
    private func recheck(_ state: State) -> ContinuousClock.Instant? {
        let open = state.lanes.values.filter { !$0.finished }
        guard !open.isEmpty, open.allSatisfy({ $0.inFlight > 0 && !$0.parked }) else { return nil }
        if held != nil { return .now + Self.heldInterval }
        return open.compactMap(\.since).min().map { $0 + settleTime }
    }

    /// Changes the lanes and wakes the task waiting for a change.
    private func changing(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            return Self.takeWaiter(&state)
        }?.resume()
    }

    /// The waiting task, to resume once the lock is let go; or, when none waits, a note for the next wait.
    private static func takeWaiter(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        guard let waiter = state.changeWaiter else {
            state.changed = true
            return nil
        }
        state.changeWaiter = nil
        return waiter
    }

    /// The foreground step has ended: parked lanes go on.
    func endForeground() {
        let resumed: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.foregroundRunning = false
            for index in state.lanes.keys { state.lanes[index]?.parked = false }
            defer { state.parked = [] }
            return state.parked + (Self.takeWaiter(&state).map { [$0] } ?? [])
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
