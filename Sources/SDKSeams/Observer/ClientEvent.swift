/// One thing a client did; see `ClientObserver`. The M-Pin SDK and the DeviceSecurity connector
/// report the same kinds of event, so the recording layer treats both alike.
public enum ClientEvent: Sendable, Hashable {
    /// An API call started, with its arguments.
    case call(Call)
    /// An API call ended, with its status and outputs.
    case result(Result)
    /// One HTTP exchange: the response (any status) or the transport error. A request the client
    /// refused to send (the SDK's untrusted URL) is reported with the error.
    case http(HTTPExchange)
    /// One crypto primitive with its inputs and outputs (the M-Pin SDK).
    case crypto(CryptoStep)
    /// Random bytes the client drew from its `RandomSource`.
    case random(RandomDraw)
    /// A reading of the client's `SDKClock`.
    case clock(ClockRead)
    /// Something only one client reports (the connector's `loginResponse` and `storageFailure`).
    case note(Note)
}
