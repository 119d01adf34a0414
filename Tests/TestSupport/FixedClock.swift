import SDKSeams

/// A clock that always says the same time.
package struct FixedClock: SDKClock {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package var milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    package func nowMilliseconds() -> Int64 { milliseconds }
}
