/// The clock seam: every reading of the current time by the SDK comes from here.
public protocol SDKClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}
