import Synchronization

/// The task that runs a command's server (`serve --cassette`, `proxy`), stopped from a signal
/// handler or a request handler: a stop asked for before the task is attached cancels it as soon as
/// it is; the error that ended the server, if any, is kept for the command to report.
final class ServerTaskControl: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var stopRequested = false
        var error: (any Error)?
    }

    private let state = Mutex(State())

    /// Attaches the server's task, cancelling it at once when a stop was already asked for.
    func attach(_ task: Task<Void, Never>) {
        let stopNow = state.withLock { state -> Bool in
            state.task = task
            return state.stopRequested
        }
        if stopNow { task.cancel() }
    }

    /// Asks for the stop: cancels the task if attached, else when it is.
    func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.stopRequested = true
            return state.task
        }
        task?.cancel()
    }

    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    func fail(_ error: any Error) { state.withLock { $0.error = error } }

    var error: (any Error)? { state.withLock { $0.error } }
}
