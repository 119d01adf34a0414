/// The offline rules: a borrow of `seconds` confirmed at `since` still holds at `now` when
/// `now - since < seconds * 1000` (and the clock has not gone back before `since`).
public enum BorrowTime {
    /// Whether the borrow still holds at `now`.
    /// Times as far apart as `Int64.min` and `Int64.max` (a stored state may hold any) are compared
    /// without overflow: a span too long for `Int64` is longer than any borrow.
    public static func holds(since: Int64, seconds: Int64, now: Int64) -> Bool {
        guard seconds > 0, now >= since else { return false }
        let (limit, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (elapsed, tooLong) = now.subtractingReportingOverflow(since)
        if tooLong { return false }
        return overflow || elapsed < limit
    }

    /// Milliseconds left at `now` (0 once expired).
    public static func remaining(since: Int64, seconds: Int64, now: Int64) -> Int64 {
        guard holds(since: since, seconds: seconds, now: now) else { return 0 }
        let (limit, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        // `holds` saw `now - since` without overflow and below `limit`.
        return overflow ? .max : limit - (now - since)
    }

    /// The offline verdict for `accessIdentifier` from `state` at `now`: `.success` when both the
    /// device's and the application's borrow times hold, otherwise the expired ones
    /// (`.deviceBorrowTimeExpired` also when the device is not registered,
    /// `.applicationBorrowTimeExpired` also when the application was never granted or released).
    public static func offlineVerdict(_ state: DeviceState, accessIdentifier: String, now: Int64) -> ServiceResult {
        var result: ServiceResult = []
        if state.deviceHash == nil
            || !holds(since: state.deviceConfirmedAt ?? .min, seconds: state.deviceBorrowTime ?? 0, now: now)
        {
            result.insert(.deviceBorrowTimeExpired)
        }
        if let grant = state.applications[accessIdentifier],
            holds(since: grant.grantedAt, seconds: grant.borrowTime, now: now)
        {
        } else {
            result.insert(.applicationBorrowTimeExpired)
        }
        return result.isEmpty ? .success : result
    }
}
