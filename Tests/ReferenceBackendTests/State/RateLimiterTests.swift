import Testing

@testable import ReferenceBackend

/// `RateLimiter`: a burst at once, then one per interval, on the clock given with each call; keys
/// apart; kept keys bounded.
@Suite struct RateLimiterTests {
    @Test func aBurstThenOnePerInterval() {
        var limiter = RateLimiter(RateLimit(burst: 3, seconds: 10))
        for _ in 0..<3 {
            #expect(limiter.allows("u", now: 0))
            limiter.count("u", now: 0)
        }
        #expect(!limiter.allows("u", now: 0) && limiter.wait("u", now: 0) == 10_000)
        #expect(limiter.allows("v", now: 0))
        #expect(!limiter.allows("u", now: 9_999) && limiter.allows("u", now: 10_000))
        limiter.count("u", now: 10_000)
        #expect(!limiter.allows("u", now: 10_000))
        // A long pause brings the whole burst back, not more.
        for _ in 0..<3 {
            #expect(limiter.allows("u", now: 1_000_000))
            limiter.count("u", now: 1_000_000)
        }
        #expect(!limiter.allows("u", now: 1_000_000))
    }

    @Test func keptKeysAreBounded() {
        var limiter = RateLimiter(RateLimit(burst: 1, seconds: 1), maximumKeys: 10)
        for index in 0..<100 { limiter.count("k\(index)", now: Int64(index)) }
        // The newest keys are still limited.
        #expect(!limiter.allows("k99", now: 99))
    }
}
