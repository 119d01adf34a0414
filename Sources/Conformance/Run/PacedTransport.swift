import SDKSeams
import Synchronization

/// Sends through `base` within the run's pacer and the case's own request limit. A request over
/// either limit is not sent: it fails with a transport error (`cancelled`) and the transport
/// remembers it, so that the suite reports the case as skipped rather than graded on a cut run.
final class PacedTransport: HTTPTransport {
    let base: any HTTPTransport
    let pacer: RequestPacer
    let caseLimit: Int
    private let counts = Mutex((sent: 0, refused: false))

    init(base: any HTTPTransport, pacer: RequestPacer, caseLimit: Int) {
        self.base = base
        self.pacer = pacer
        self.caseLimit = caseLimit
    }

    /// Requests this case sent.
    var sent: Int { counts.withLock { $0.sent } }
    /// Whether a request was refused for the budget.
    var refused: Bool { counts.withLock { $0.refused } }

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
            throw TransportError(kind: .cancelled, message: "the case's limit of \(caseLimit) requests is spent", url: request.url)
        }
        guard await pacer.admit() else {
            counts.withLock { $0.refused = true }
            throw TransportError(kind: .cancelled, message: "the run's budget of \(pacer.budget) requests is spent", url: request.url)
        }
        return try await base.send(request)
    }
}
