import Foundation
import Synchronization

/// Where the backend reads the time: expiry of signatures, passes and access numbers, the day
/// number of time permits, the `issued` field of M-Pin IDs.
public protocol BackendClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}

/// The system's wall clock.
public struct SystemBackendClock: BackendClock {
    public init() {}

    public func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// A clock that moves only when told: for tests of expiry and of the midnight rule, and for
/// recordings whose bytes must not depend on when they were made.
public final class ManualBackendClock: BackendClock, Sendable {
    private let now: Mutex<Int64>

    public init(milliseconds: Int64) {
        now = Mutex(milliseconds)
    }

    public func nowMilliseconds() -> Int64 { now.withLock { $0 } }

    public func set(milliseconds: Int64) { now.withLock { $0 = milliseconds } }

    /// Moves the clock by `seconds` (negative: back), saturating at the ends of `Int64`
    /// milliseconds; a step that is not a number leaves it where it is.
    public func advance(seconds: Double) {
        let step = (seconds * 1000).rounded(.towardZero)
        guard !step.isNaN else { return }
        now.withLock { now in
            let target = Double(now) + step
            now = target >= Double(Int64.max) ? .max : target <= Double(Int64.min) ? .min : Int64(target)
        }
    }
}
