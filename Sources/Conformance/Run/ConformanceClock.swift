/// The suite's time: a monotonic reading and a wait. The rate limit computes each request's slot
/// and waits once for it (never a polling loop); a test passes a clock that only advances.
public protocol ConformanceClock: Sendable {
    /// Seconds on a monotonic scale (the origin is the clock's own).
    func now() -> Double
    /// Waits `seconds` (returns early only when the task is cancelled).
    func sleep(seconds: Double) async
}

/// The system's monotonic clock.
public struct SystemConformanceClock: ConformanceClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    public func sleep(seconds: Double) async {
        guard seconds > 0 else { return }
        try? await Task.sleep(for: .seconds(seconds))
    }
}
