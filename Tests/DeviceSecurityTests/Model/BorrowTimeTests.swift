import DeviceSecurity
import Testing

@Suite struct BorrowTimeTests {
    let start: Int64 = 1_767_225_600_000

    @Test func holdsStrictlyBeforeTheEnd() {
        #expect(BorrowTime.holds(since: start, seconds: 60, now: start))
        #expect(BorrowTime.holds(since: start, seconds: 60, now: start + 59_999))
        #expect(!BorrowTime.holds(since: start, seconds: 60, now: start + 60_000))
        #expect(!BorrowTime.holds(since: start, seconds: 60, now: start + 3_600_000))
    }

    @Test func aClockBeforeTheGrantOrNoBorrowTimeNeverHolds() {
        #expect(!BorrowTime.holds(since: start, seconds: 60, now: start - 1))
        #expect(!BorrowTime.holds(since: start, seconds: 0, now: start))
        #expect(!BorrowTime.holds(since: start, seconds: -5, now: start))
    }

    @Test func hugeBorrowTimesDoNotOverflow() {
        #expect(BorrowTime.holds(since: start, seconds: .max, now: .max))
        #expect(BorrowTime.remaining(since: start, seconds: .max, now: start + 1) == .max)
    }

    @Test func remainingCountsDown() {
        #expect(BorrowTime.remaining(since: start, seconds: 60, now: start + 15_000) == 45_000)
        #expect(BorrowTime.remaining(since: start, seconds: 60, now: start + 60_000) == 0)
    }

    func state(deviceBorrow: Int64 = 3600, appBorrow: Int64 = 600) -> DeviceState {
        var state = DeviceState()
        state.deviceHash = "abc"
        state.deviceBorrowTime = deviceBorrow
        state.deviceConfirmedAt = start
        state.applications["app"] = .init(grantedAt: start, borrowTime: appBorrow)
        return state
    }

    @Test func offlineVerdictWithinBothBorrowTimes() {
        #expect(BorrowTime.offlineVerdict(state(), accessIdentifier: "app", now: start + 599_999) == .success)
    }

    @Test func offlineVerdictPastEachBorrowTime() {
        #expect(
            BorrowTime.offlineVerdict(state(), accessIdentifier: "app", now: start + 600_000)
                == .applicationBorrowTimeExpired)
        #expect(
            BorrowTime.offlineVerdict(state(deviceBorrow: 300), accessIdentifier: "app", now: start + 300_000)
                == .deviceBorrowTimeExpired)
        #expect(
            BorrowTime.offlineVerdict(state(), accessIdentifier: "app", now: start + 3_600_000)
                == [.deviceBorrowTimeExpired, .applicationBorrowTimeExpired])
    }

    @Test func offlineVerdictWithoutRegistrationOrGrant() {
        var unregistered = state()
        unregistered.deviceHash = nil
        #expect(
            BorrowTime.offlineVerdict(unregistered, accessIdentifier: "app", now: start).contains(
                .deviceBorrowTimeExpired))
        #expect(
            BorrowTime.offlineVerdict(state(), accessIdentifier: "other", now: start) == .applicationBorrowTimeExpired)
    }
}
