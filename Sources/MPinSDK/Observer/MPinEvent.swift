/// One thing the SDK did; see `MPinObserver`.
public enum MPinEvent: Sendable, Hashable {
    /// An API call started, with its arguments.
    case call(Call)
    /// An API call ended, with its status and outputs.
    case result(Result)
    /// One HTTP exchange (or a refused request: an untrusted URL is reported with the error and
    /// was not sent).
    case http(HTTPExchange)
    /// One crypto primitive with its inputs and outputs.
    case crypto(CryptoStep)
    /// Random bytes the SDK drew from its `RandomSource`.
    case random(RandomDraw)
    /// A reading of the SDK's clock.
    case clock(ClockRead)
}

/// A named value of an event, as text (hex for binary values).
public struct NamedValue: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
