import Testing

@testable import ReferenceBackend

/// The hold of a phone login (docs/protocol.md §8.2, §13): counted from opening to resolution, resolved
/// once, released at once, timed out by the backend's clock, by real time, or by a stop.
@Suite struct LoginHoldsTests {
    static let far: Int64 = .max

    @Test func aReleaseBeforeTheWaitIsKept() async {
        let holds = LoginHolds()
        holds.open("a")
        #expect(holds.count == 1 && holds.isWaiting("a"))
        #expect(holds.resolve("a", .loggedIn(sessionToken: "t", userID: "u")))
        #expect(holds.count == 0 && !holds.isWaiting("a"))
        #expect(!holds.resolve("a", .timedOut), "the first outcome wins")
        let outcome = await holds.outcome(
            of: "a", clock: ManualBackendClock(milliseconds: 0), deadline: Self.far, realTimeLimit: .seconds(5))
        #expect(outcome == .loggedIn(sessionToken: "t", userID: "u"))
        #expect(!holds.isWaiting("a"))
    }

    @Test func aReleaseWakesTheWaiterAtOnce() async throws {
        let holds = LoginHolds()
        holds.open("b")
        let waiter = Task {
            await holds.outcome(
                of: "b", clock: ManualBackendClock(milliseconds: 0), deadline: Self.far, realTimeLimit: .seconds(600))
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(holds.resolve("b", .loggedIn(sessionToken: "t", userID: "u")))
        // Woken by the release, not by the 600 s limit, which would give timedOut: the outcome
        // tells the two apart, with no clock.
        #expect(await waiter.value == .loggedIn(sessionToken: "t", userID: "u"))
    }

    @Test func theBackendClockEndsIt() async throws {
        let holds = LoginHolds()
        let clock = ManualBackendClock(milliseconds: 1000)
        holds.open("c")
        let waiter = Task { await holds.outcome(of: "c", clock: clock, deadline: 11_000, realTimeLimit: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(holds.count == 1)
        clock.advance(seconds: 10)
        #expect(await waiter.value == .timedOut)
        #expect(holds.count == 0)
        #expect(!holds.resolve("c", .loggedIn(sessionToken: "t", userID: "u")))
    }

    @Test func realTimeEndsAFrozenClock() async {
        let holds = LoginHolds()
        holds.open("d")
        let started = ContinuousClock.now
        let outcome = await holds.outcome(
            of: "d", clock: ManualBackendClock(milliseconds: 0), deadline: 1, realTimeLimit: .milliseconds(200))
        // The clock's deadline (1 ms) is not reached; real time ends it.
        #expect(outcome == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(holds.count == 0)
    }

    @Test func stoppingEndsEveryHold() async {
        let holds = LoginHolds()
        holds.open("e")
        holds.open("f")
        #expect(holds.count == 2)
        holds.resolveAll()
        #expect(holds.count == 0)
        let clock = ManualBackendClock(milliseconds: 0)
        #expect(
            await holds.outcome(of: "e", clock: clock, deadline: Self.far, realTimeLimit: .seconds(30)) == .timedOut)
        holds.open("g")
        #expect(
            await holds.outcome(of: "g", clock: clock, deadline: Self.far, realTimeLimit: .seconds(30)) == .timedOut)
        #expect(holds.count == 0)
    }
}
