/// Receives everything the SDK does, in order: API calls and their results, HTTP exchanges,
/// crypto primitives with inputs and outputs, random draws and clock reads.
///
/// The SDK runs one API call at a time, so the events of one call are contiguous: its `call`
/// event, then its inner events, then its `result` event. `observe` is called synchronously from
/// the SDK actor and should return quickly. Secrets (PIN, token, regOTT, shares) appear in clear;
/// redacting them is the observer's job.
public protocol MPinObserver: Sendable {
    func observe(_ event: MPinEvent)
}
