import Dispatch
import Foundation
import Synchronization

/// The one home of run-until-a-signal: the task that runs a command's server (`serve`, `cassette
/// serve`, `proxy`), stopped from a signal handler or a request handler.
///
/// `run(_:onSignal:)` starts the server in a task of its own and returns once that task has ended
/// (or `release()` was called); each Ctrl-C or SIGTERM meanwhile says "stopping" (through the
/// `announce` it was made with) and calls the command's `onSignal`, by default `stop()`. A stop asked for before the task is attached cancels
/// it as soon as it is; the error that ended the server, if any, is kept for the command to report.
package final class ServerTaskControl: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var stopRequested = false
        var error: (any Error)?
        var released = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let announce: @Sendable (String) -> Void

    /// A control that says what a signal does through `announce` (standard output in the CLI).
    package init(announce: @escaping @Sendable (String) -> Void = { _ in }) {
        self.announce = announce
    }

    /// Runs `server` until it returns (or `release()` is called), with Ctrl-C and SIGTERM calling
    /// `onSignal` (nil: `stop()`) meanwhile. An error `server` throws is kept in `error`.
    package func run(_ server: @escaping @Sendable () async throws -> Void, onSignal: (@Sendable () -> Void)? = nil)
        async
    {
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                announce("stopping\n")
                if let onSignal { onSignal() } else { stop() }
            }
            source.resume()
            return source
        }
        attach(
            Task { [self] in
                do {
                    try await server()
                } catch {
                    fail(error)
                }
                release()
            })
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.released { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        for source in sources { source.cancel() }
    }

    /// Ends `run`'s wait, whether or not the server's task has ended (the proxy's second Ctrl-C,
    /// when the exchanges in flight do not end).
    package func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Attaches the server's task, cancelling it at once when a stop was already asked for.
    private func attach(_ task: Task<Void, Never>) {
        let stopNow = state.withLock { state -> Bool in
            state.task = task
            return state.stopRequested
        }
        if stopNow { task.cancel() }
    }

    /// Asks for the stop: cancels the task if attached, else when it is.
    package func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.stopRequested = true
            return state.task
        }
        task?.cancel()
    }

    package var stopRequested: Bool { state.withLock { $0.stopRequested } }

    package func fail(_ error: any Error) { state.withLock { $0.error = error } }

    package var error: (any Error)? { state.withLock { $0.error } }
}
