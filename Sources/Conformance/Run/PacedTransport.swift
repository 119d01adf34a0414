import SDKSeams
import Synchronization

/// Sends through `base` within the run's pacer, the case's own request limit and the run's time
/// (`RunBounds`): each request's time limit is its own, at most the run's `requestTimeout`, and
/// never past the run's deadline. A request over a limit, or one asked for once the deadline has
/// passed, is not sent: it fails with a transport error (`cancelled`) and the transport remembers
/// it, so that the suite reports the case as skipped rather than graded on a cut run.
final class PacedTransport: HTTPTransport {
    let base: any HTTPTransport
    let pacer: RequestPacer
    let caseLimit: Int
    let bounds: RunBounds
    private let counts = Mutex((sent: 0, refused: false, deadline: false))

    init(base: any HTTPTransport, pacer: RequestPacer, caseLimit: Int, bounds: RunBounds) {
        self.base = base
        self.pacer = pacer
        self.caseLimit = caseLimit
        self.bounds = bounds
    }

    /// Requests this case sent.
    var sent: Int { counts.withLock { $0.sent } }
    /// Whether a request was refused for the budget or the deadline.
    var refused: Bool { counts.withLock { $0.refused } }
    /// Whether the run's deadline cut the case: a request refused, or timed out, once it had passed.
    var deadlineHit: Bool { counts.withLock { $0.deadline } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let withinCase = counts.withLock { counts in
            guard counts.sent < caseLimit else {
                counts.refused = true
                return false
            }
            counts.sent += 1
            return true
        }
        guard withinCase else {
            throw TransportError(
                kind: .cancelled, message: "the case's limit of \(caseLimit) requests is spent", url: request.url)
        }
        guard await pacer.admit() else {
            counts.withLock { $0.refused = true }
            throw TransportError(
                kind: .cancelled, message: "the run's budget of \(pacer.budget) requests is spent", url: request.url)
        }
        if bounds.deadlinePassed { throw deadlineError(request) }
        var timed = request
        timed.timeout = bounds.timeLimit(asked: request.timeout)
        do {
            return try await base.send(timed)
        } catch {
            if bounds.deadlinePassed, error.kind == .timedOut || error.kind == .cancelled {
                throw deadlineError(request, cause: error)
            }
            throw error
        }
    }

    /// The refusal of a request once the deadline has passed (noted for the suite).
    private func deadlineError(_ request: HTTPRequest, cause: TransportError? = nil) -> TransportError {
        counts.withLock {
            $0.refused = true
            $0.deadline = true
        }
        let seconds = bounds.deadlineSeconds.map(RunBounds.seconds) ?? "?"
        return TransportError(
            kind: .cancelled,
            message: "the run's deadline (\(seconds)) has passed"
                + (cause.map { " (the request: \($0.message))" } ?? ""), url: request.url)
    }
}
