import Synchronization

/// The phones' logins held for a browser (docs/protocol.md §8.2, §13): a right PIN for an access number
/// or access code makes the RPS hold the phone's `POST /rps/authenticate` until the browser logs
/// in at the RPA with the same authOTT, or until the login timeout.
///
/// A hold is opened (and counted) before the browser can see the authOTT in its poll, resolved
/// once, by the browser's login or by the timeout (and uncounted then, before either answer is
/// written), and closed when the held request takes its outcome. Resolution wakes the held
/// request at once through its continuation. Thread-safe: the count is read synchronously by
/// `ReferenceBackend.heldLogins`.
final class LoginHolds: Sendable {
    /// How a hold ended.
    enum Outcome: Sendable, Equatable {
        /// The browser logged in at the RPA: its session token and user.
        case loggedIn(sessionToken: String, userID: String)
        /// No browser came within the login timeout (or the backend is stopping).
        case timedOut
    }

    private struct Entry {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var unresolved = 0
        /// Set when the backend stops: holds time out instead of waiting.
        var closed = false
    }

    /// How often a held request looks at the backend's clock, which has no change notification.
    static let clockPollInterval: Duration = .milliseconds(5)

    private let state = Mutex(State())

    /// Holds opened and not yet resolved: phone requests waiting for a browser.
    var count: Int { state.withLock { $0.unresolved } }

    /// Opens (and counts) the hold of an authOTT, before its login becomes visible to the browser.
    func open(_ authOTT: String) {
        state.withLock { state in
            if let previous = state.entries[authOTT], previous.outcome == nil { state.unresolved -= 1 }
            state.entries[authOTT] = Entry()
            state.unresolved += 1
        }
    }

    /// True while the hold of an authOTT is open and unresolved.
    func isWaiting(_ authOTT: String) -> Bool {
        state.withLock { $0.entries[authOTT].map { $0.outcome == nil } ?? false }
    }

    /// Resolves the hold of an authOTT, uncounts it and wakes its request; false when there is no
    /// such hold or it was already resolved (the first outcome wins).
    @discardableResult
    func resolve(_ authOTT: String, _ outcome: Outcome) -> Bool {
        let (resolved, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Outcome, Never>?) in
            guard var entry = state.entries[authOTT], entry.outcome == nil else { return (false, nil) }
            let waiter = entry.waiter
            entry.outcome = outcome
            entry.waiter = nil
            state.entries[authOTT] = entry
            state.unresolved -= 1
            return (true, waiter)
        }
        waiter?.resume(returning: outcome)
        return resolved
    }

    /// Times out every unresolved hold, and every hold waited for from now on (the backend is stopping).
    func resolveAll() {
        let pending = state.withLock { state in
            state.closed = true
            return state.entries.filter { $0.value.outcome == nil }.map(\.key)
        }
        for authOTT in pending { resolve(authOTT, .timedOut) }
    }

    /// Waits for the outcome of an open hold and closes it. The hold times out when `clock` reaches
    /// `deadline` (milliseconds; the clock is looked at every `clockPollInterval`), when
    /// `realTimeLimit` of real time has passed (so a clock that nobody moves never hangs a
    /// request), or when the waiting task is cancelled. A hold that was never opened times out at once.
    func outcome(of authOTT: String, clock: any BackendClock, deadline: Int64, realTimeLimit: Duration) async -> Outcome
    {
        let realDeadline = ContinuousClock.now + realTimeLimit
        let watchdog = Task { [self] in
            while !Task.isCancelled {
                if clock.nowMilliseconds() >= deadline || ContinuousClock.now >= realDeadline {
                    resolve(authOTT, .timedOut)
                    return
                }
                try? await Task.sleep(for: Self.clockPollInterval)
            }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let ready: Outcome? = state.withLock { state in
                    guard var entry = state.entries[authOTT] else { return .timedOut }
                    if let outcome = entry.outcome { return outcome }
                    if state.closed {
                        entry.outcome = .timedOut
                        state.entries[authOTT] = entry
                        state.unresolved -= 1
                        return .timedOut
                    }
                    entry.waiter = continuation
                    state.entries[authOTT] = entry
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            resolve(authOTT, .timedOut)
        }
        watchdog.cancel()
        state.withLock { _ = $0.entries.removeValue(forKey: authOTT) }
        return outcome
    }
}
