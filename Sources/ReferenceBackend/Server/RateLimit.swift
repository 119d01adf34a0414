/// A rate: `burst` events at once, then one more each `seconds` (a token bucket of `burst`
/// tokens refilled one per `seconds`), on the backend's clock. On a clock that stands still
/// (`serve --time-seconds`) nothing refills, so the rate is a cap for the backend's life.
public struct RateLimit: Sendable, Hashable {
    /// Events allowed at once (at least 1).
    public var burst: Int
    /// Seconds until one more event is allowed (more than 0).
    public var seconds: Double

    public init(burst: Int, seconds: Double) {
        self.burst = max(1, burst)
        self.seconds = seconds > 0 ? seconds : 1
    }

    /// The time one token takes to refill, in milliseconds of the backend's clock.
    var interval: Int64 { max(1, Int64((seconds * 1000).rounded(.up))) }
}
