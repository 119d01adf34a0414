import Dispatch

/// Holds the server threads that pass it until the test opens it, for at most 10 s each: a reply
/// that must still be outstanding while the test checks something else.
final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Waits until the gate is open (or 10 s have passed), then lets the next waiter through too.
    func pass() {
        if semaphore.wait(timeout: .now() + 10) == .success { semaphore.signal() }
    }

    func open() {
        semaphore.signal()
    }
}
