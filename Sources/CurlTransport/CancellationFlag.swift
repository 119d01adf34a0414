import Foundation

/// Set when the task that sent a request is cancelled; read by `CurlMultiDriver` before it adds the
/// request to its transfers. A handler given with `onCancel` runs once, on the first `cancel()`
/// after it was given: it takes the request out of the driver's queue, or asks the driver to take
/// it out of its transfers.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var handler: (@Sendable () -> Void)?

    func cancel() {
        let pending: (@Sendable () -> Void)? = lock.withLock {
            cancelled = true
            defer { handler = nil }
            return handler
        }
        pending?()
    }

    var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// Forgets the handler (it refers to the request, which refers to this flag).
    func dropHandler() {
        lock.withLock { handler = nil }
    }

    /// Runs `handler` on the next `cancel()`; not at all when the flag is already set (whoever
    /// reads the flag then sees it).
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock {
            if !cancelled { self.handler = handler }
        }
    }
}
