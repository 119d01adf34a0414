import Testing

@testable import Conformance

/// The rate limit waits once per request for its slot, on the clock it is given; the budget
/// refuses what is over it.
@Suite struct RequestPacerTests {
    @Test func requestsWaitForTheirSlots() async {
        let clock = AdvancingClock()
        let pacer = RequestPacer(budget: 10, rate: 4, clock: clock)
        for _ in 0..<5 { #expect(await pacer.admit()) }
        #expect(clock.waits == [0.25, 0.25, 0.25, 0.25])
        #expect(clock.now() == 1.0)
    }

    @Test func theBudgetRefusesTheRest() async {
        let pacer = RequestPacer(budget: 2, rate: nil, clock: AdvancingClock())
        #expect(await pacer.admit())
        #expect(await pacer.admit())
        #expect(!(await pacer.admit()))
        #expect(pacer.sent == 2)
    }

    @Test func aRateLimitedRunWaitsOnTheGivenClock() async throws {
        let clock = AdvancingClock()
        let report = try await ConformanceRun.run(profile: .default, pattern: "settings.*", rate: 2, clock: clock)
        #expect(report.requests >= 2)
        #expect(clock.waits.allSatisfy { $0 <= 0.5 + 1e-9 })
        #expect(clock.waits.reduce(0, +) >= Double(report.requests - 1) * 0.5 - 0.5)
    }

    /// Past the run's budget no request is sent: the cases cut short, and those after, are skipped.
    @Test func aSpentBudgetSkipsTheRest() async throws {
        let report = try await ConformanceRun.run(profile: .default, pattern: "pin.*", budget: 40)
        #expect(report.requests <= 40)
        let skipped = report.results.filter { $0.verdict.kind == .skipped }
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { $0.verdict.reason.contains("budget") }, "\(skipped.map(\.verdict))")
        #expect(!report.results.contains { $0.verdict.kind == .fail })
    }
}
