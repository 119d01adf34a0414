import DeviceSecurity
import Testing

/// Times and borrow times from a stored state are compared without overflow, and a state whose
/// numbers are out of range says which field is wrong.
@Suite struct DeviceStateRangeTests {
    /// Before: `now - since` trapped when a stored time was far in the past.
    @Test func borrowTimesHoldWithoutOverflowForAnyStoredTime() {
        #expect(!BorrowTime.holds(since: .min, seconds: 60, now: 1_767_225_600_000))
        #expect(!BorrowTime.holds(since: .min, seconds: .max, now: .max))
        #expect(BorrowTime.remaining(since: .min, seconds: .max, now: 0) == 0)
        #expect(BorrowTime.holds(since: 0, seconds: .max, now: .max))
        var state = DeviceState()
        state.deviceHash = "h"
        state.deviceBorrowTime = 60
        state.applications["app"] = .init(grantedAt: .min, borrowTime: 60)
        #expect(
            BorrowTime.offlineVerdict(state, accessIdentifier: "app", now: 1_767_225_600_000)
                == [.deviceBorrowTimeExpired, .applicationBorrowTimeExpired])
    }

    @Test func aStateOutOfRangeNamesTheField() {
        #expect(DeviceState().problem == nil)
        var state = DeviceState()
        state.deviceConfirmedAt = -1
        #expect(state.problem == "deviceConfirmedAt -1 is not a time from 0 to 253402300799999 ms since 1970")
        state = DeviceState()
        state.deviceBorrowTime = 9_223_372_036_854_775_807
        #expect(state.problem == "deviceBorrowTime 9223372036854775807 is not a borrow time from 0 to 3153600000 s")
        state = DeviceState()
        state.applications["b"] = .init(grantedAt: 5, borrowTime: -1)
        #expect(state.problem == "applications.b.borrowTime -1 is not a borrow time from 0 to 3153600000 s")
        state = DeviceState()
        state.version = 2
        #expect(state.problem == "version 2 is not 1, the layout this connector reads")
    }
}
