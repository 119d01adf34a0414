import ReferenceBackend
import Testing

/// The manual clock moves by any step without trapping: it saturates at the ends of Int64.
@Suite struct BackendClockTests {
    @Test func advanceSaturates() {
        let clock = ManualBackendClock(milliseconds: 1_000)
        clock.advance(seconds: 1.5)
        #expect(clock.nowMilliseconds() == 2_500)
        clock.advance(seconds: 1e30)
        #expect(clock.nowMilliseconds() == Int64.max)
        clock.advance(seconds: 1)
        #expect(clock.nowMilliseconds() == Int64.max)
        clock.advance(seconds: -.infinity)
        #expect(clock.nowMilliseconds() == Int64.min)
        clock.advance(seconds: .nan)
        #expect(clock.nowMilliseconds() == Int64.min)
    }
}
