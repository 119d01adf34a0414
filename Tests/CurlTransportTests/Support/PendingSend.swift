import CurlTransport
import Foundation
import SDKSeams

/// A request sent from a task of its own; the test reads its result once it has come, and can
/// cancel the task.
final class PendingSend: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<HTTPResponse, TransportError>?
    private var task: Task<Void, Never>?

    init(_ request: HTTPRequest, through transport: CurlTransport) {
        let task = Task { [self] in
            let outcome: Result<HTTPResponse, TransportError>
            do throws(TransportError) {
                outcome = .success(try await transport.send(request))
            } catch {
                outcome = .failure(error)
            }
            lock.withLock { result = outcome }
        }
        lock.withLock { self.task = task }
    }

    /// The response or error, once it has come.
    var outcome: Result<HTTPResponse, TransportError>? {
        lock.withLock { result }
    }

    var error: TransportError? {
        guard case .failure(let error) = outcome else { return nil }
        return error
    }

    var response: HTTPResponse? {
        try? outcome?.get()
    }

    func cancel() {
        lock.withLock { task }?.cancel()
    }
}
