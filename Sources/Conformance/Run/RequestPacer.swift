import Synchronization

/// The run's request budget and rate limit, shared by every case: each request takes the next
/// slot (`1 / rate` seconds after the previous one) and waits once until it; past the budget a
/// request is refused without being sent.
public final class RequestPacer: Sendable {
    private struct State {
        var sent = 0
        var nextSlot: Double?
    }

    /// The most requests of the whole run.
    public let budget: Int
    /// Requests per second; nil sends at once.
    public let rate: Double?
    let clock: any ConformanceClock
    private let state = Mutex(State())

    /// - Parameters:
    ///   - budget: at least 1.
    ///   - rate: more than 0, or nil.
    ///   - clock: the clock each request's slot is waited for on.
    public init(budget: Int, rate: Double?, clock: any ConformanceClock) {
        self.budget = max(1, budget)
        self.rate = rate.flatMap { $0 > 0 ? $0 : nil }
        self.clock = clock
    }

    /// Requests admitted so far.
    public var sent: Int { state.withLock { $0.sent } }

    /// Takes a slot and waits for it; false when the budget is spent (nothing may be sent).
    package func admit() async -> Bool {
        let now = clock.now()
        let wait: Double? = state.withLock { state in
            guard state.sent < budget else { return nil }
            state.sent += 1
            guard let rate else { return 0 }
            let slot = max(now, state.nextSlot ?? now)
            state.nextSlot = slot + 1 / rate
            return slot - now
        }
        guard let wait else { return false }
        if wait > 0 { await clock.sleep(seconds: wait) }
        return true
    }
}
