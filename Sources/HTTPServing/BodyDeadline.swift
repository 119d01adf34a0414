import NIOCore

/// How long a request's body may take to arrive, counted from its head: a request whose body has
/// not ended by then is answered 408 with `Connection: close` and its connection closed (a body
/// already refused with 413 is not answered twice: its connection is closed). `ExchangeHandler`
/// keeps it for every server on this module's plumbing (`serve`, `serve --cassette`, `proxy`), so a client
/// that sends a head and a byte of its body and then stalls holds a connection for at most this
/// long (RFC 9110 §15.5.9).
public struct BodyDeadline: Sendable, Hashable {
    /// The time allowed, in seconds: more than 0 and at most `maximumSeconds`.
    public let seconds: Double

    /// The default: 10 s, short enough that stalled uploads cannot hold the server's connections
    /// for long, and ample for the few kilobytes a backend request carries.
    public static let defaultSeconds: Double = 10
    /// The largest value accepted (an hour).
    public static let maximumSeconds: Double = 3600

    public static let standard = BodyDeadline(checkedSeconds: defaultSeconds)

    /// Nil when `seconds` is not more than 0 and at most `maximumSeconds`.
    public init?(seconds: Double) {
        guard seconds > 0, seconds <= Self.maximumSeconds else { return nil }
        self.seconds = seconds
    }

    private init(checkedSeconds: Double) {
        seconds = checkedSeconds
    }

    /// The time allowed, for the event loop's scheduler.
    var amount: TimeAmount { .nanoseconds(Int64(seconds * 1_000_000_000)) }
}
