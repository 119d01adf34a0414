/// Receives everything the connector does, in order: each API call, its HTTP exchanges, clock
/// reads and random draws, its result, and the login responses.
///
/// Calls run one at a time, so the events of one call are contiguous (`call` … `result`; for
/// `doLogin` the inner `registerDevice` and `applicationLogin` calls nest inside, and its
/// `loginResponse` comes just before its `result`). `observe` is called synchronously and should
/// return quickly. The password of a login appears in clear in the request body: redacting it is
/// the observer's job.
public protocol DeviceSecurityObserver: Sendable {
    func observe(_ event: DeviceSecurityEvent)
}
