/// Counts events per key under one `RateLimit`, on the backend's clock (milliseconds given with
/// each call): the generic cell rate algorithm, one due time per key. A key whose due time has
/// passed is as good as new, so such keys are forgotten once more than `maximumKeys` are kept;
/// should that not be enough, those nearest to it go next (each then starts afresh).
struct RateLimiter {
    let limit: RateLimit
    let maximumKeys: Int
    /// When each key is back to a full burst, were no more events counted.
    private var due: [String: Int64] = [:]

    init(_ limit: RateLimit, maximumKeys: Int = 100_000) {
        self.limit = limit
        self.maximumKeys = max(1, maximumKeys)
    }

    /// How many milliseconds until an event for `key` is allowed: 0 when it is now.
    func wait(_ key: String, now: Int64) -> Int64 {
        let tolerance = limit.interval * Int64(limit.burst - 1)
        let start = max(due[key] ?? now, now)
        return max(0, start - now - tolerance)
    }

    /// Whether an event for `key` is allowed now.
    func allows(_ key: String, now: Int64) -> Bool { wait(key, now: now) == 0 }

    /// Counts an event for `key` (allowed or not: the caller asks `allows` first).
    mutating func count(_ key: String, now: Int64) {
        due[key] = max(due[key] ?? now, now) &+ limit.interval
        if due.count > maximumKeys { forget(now: now) }
    }

    private mutating func forget(now: Int64) {
        due = due.filter { $0.value > now }
        guard due.count > maximumKeys else { return }
        for (key, _) in due.sorted(by: { $0.value < $1.value }).prefix(due.count - maximumKeys) { due[key] = nil }
    }
}
