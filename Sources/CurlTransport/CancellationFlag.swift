import Synchronization

/// Set when the task that sent a request is cancelled; read by `CurlMultiDriver` before it adds the
/// request to its transfers. A handler given with `onCancel` runs once, on the first `cancel()`
/// after it was given: it takes the request out of the driver's queue, or asks the driver to take
/// it out of its transfers.
///
/// One is made per request, so its lock is a `Mutex` stored in it, not an `NSLock` object of its own.
final class CancellationFlag: Sendable {
    private struct State {
        var cancelled = false
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func cancel() {
        let pending: (@Sendable () -> Void)? = state.withLock { state in
            state.cancelled = true
            defer { state.handler = nil }
            return state.handler
        }
        pending?()
    }

    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// Forgets the handler (it refers to the request, which refers to this flag).
    func dropHandler() {
        state.withLock { $0.handler = nil }
    }

    /// Runs `handler` on the next `cancel()`; not at all when the flag is already set (whoever
    /// reads the flag then sees it).
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { state in
            if !state.cancelled { state.handler = handler }
        }
    }
}
