/// Receives everything a client does, in order: the M-Pin SDK (`MPinClient`) and the
/// DeviceSecurity connector both report to one.
///
/// A client runs one API call at a time, so the events of one call are contiguous: its `call`
/// event, then its inner events (`http`, `crypto`, `random`, `clock`, `note`), then its `result`
/// event. A call may make inner calls (the connector's `doLogin` makes `registerDevice` and
/// `applicationLogin` calls): their `call` … `result` pairs nest inside the outer pair.
/// `observe` is called synchronously from the client and should return quickly. Secrets (PIN,
/// token, regOTT, shares, a login's password in a request body) appear in clear; redacting them is
/// the observer's job.
public protocol ClientObserver: Sendable {
    func observe(_ event: ClientEvent)
}
