import MPinSDK
import Synchronization

/// A clock that stands still until a `wait` step moves it: the SDK's clock in recordings against
/// the embedded backend, which reads the same time (so time permits and expiry agree).
public final class FrozenClock: SDKClock {
    private let now: Mutex<Int64>

    public init(milliseconds: Int64) {
        now = Mutex(milliseconds)
    }

    public func nowMilliseconds() -> Int64 { now.withLock { $0 } }

    /// Moves the clock on; a move past `Int64.max` (or back past `Int64.min`) stops there instead of
    /// overflowing (the scenario runner refuses a wait that would pass the end of year 9999 anyway).
    public func advance(milliseconds: Int64) {
        now.withLock { now in
            let (sum, overflow) = now.addingReportingOverflow(milliseconds)
            now = overflow ? (milliseconds > 0 ? .max : .min) : sum
        }
    }
}
