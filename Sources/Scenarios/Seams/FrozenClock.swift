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

    public func advance(milliseconds: Int64) { now.withLock { $0 += milliseconds } }
}
