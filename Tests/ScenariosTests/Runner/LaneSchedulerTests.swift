import FlowRecording
import Testing

@testable import Scenarios

/// The scheduler's waits are woken by the lanes' changes and by clock deadlines, not by polling.
/// The deadlines that must not be the reason a wait ends are an hour away, and the test asks only
/// that the wait ended well before them: a loaded machine may hold a task for a minute, so no
/// test here depends on how fast it runs.
@Suite(.timeLimit(.minutes(10))) struct LaneSchedulerTests {
    static let lane = ScenarioStep(index: 1, name: "phone")

    /// A lane that finishes wakes the waiting task at once, long before the wait's deadline.
    @Test func aChangeWakesTheWaiter() async {
        let scheduler = LaneScheduler(held: { 0 })
        scheduler.started(Self.lane)
        await scheduler.waitForChange(until: .now)  // takes the note that `started` left
        let start = ContinuousClock.now
        async let waited: Void = scheduler.waitForChange(until: start + .seconds(3_600))
        try? await Task.sleep(for: .milliseconds(20))
        scheduler.finished(Self.lane)
        await waited
        #expect(start.duration(to: .now) < .seconds(1_800))
        #expect(scheduler.isFinished(Self.lane))
    }

    /// With nothing to change, a wait ends at its deadline.
    @Test func noChangeEndsAtTheDeadline() async {
        let scheduler = LaneScheduler(held: nil)
        let start = ContinuousClock.now
        await scheduler.waitForChange(until: start + .milliseconds(50))
        #expect(start.duration(to: .now) >= .milliseconds(50))
    }

    /// Without a held signal, a lane in flight counts as settled once `settleTime` has passed: the
    /// foreground waits for that instant, not for a change.
    @Test func settleTimeIsAClockDeadline() async {
        let scheduler = LaneScheduler(held: nil, settleTime: .milliseconds(100), limit: .seconds(3_600))
        scheduler.started(Self.lane)
        ConcurrentStep.$current.withValue(Self.lane) { scheduler.sending() }
        let start = ContinuousClock.now
        let stuck = await scheduler.beginForeground()
        #expect(stuck == nil)
        let waited = start.duration(to: .now)
        #expect(waited >= .milliseconds(90) && waited < .seconds(1_800))
        scheduler.endForeground()
    }
}
