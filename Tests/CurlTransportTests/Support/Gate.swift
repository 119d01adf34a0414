import Dispatch

/// Holds the server threads that pass it until the test opens it, for at most 30 s each: a reply
/// that must still be outstanding while the test checks something else. (Longer than a test's
/// 10 s wait for a condition, so that a reply let out by this bound cannot meet that wait.)
final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Waits until the gate is open (or 30 s have passed), then lets the next waiter through too.
    func pass() {
        if semaphore.wait(timeout: .now() + 30) == .success { semaphore.signal() }
    }

    func open() {
        semaphore.signal()
    }
}
