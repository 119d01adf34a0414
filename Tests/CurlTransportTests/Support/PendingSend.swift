import CurlTransport
import Foundation
import SDKSeams
import Synchronization

/// A request sent from a task of its own; the test reads its result once it has come, and can
/// cancel the task.
final class PendingSend: Sendable {
    private let result = Mutex<Result<HTTPResponse, TransportError>?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ request: HTTPRequest, through transport: CurlTransport) {
        let task = Task { [self] in
            let outcome: Result<HTTPResponse, TransportError>
            do throws(TransportError) {
                outcome = .success(try await transport.send(request))
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
        }
        self.task.withLock { $0 = task }
    }

    /// The response or error, once it has come.
    var outcome: Result<HTTPResponse, TransportError>? {
        result.withLock { $0 }
    }

    var error: TransportError? {
        guard case .failure(let error) = outcome else { return nil }
        return error
    }

    var response: HTTPResponse? {
        try? outcome?.get()
    }

    func cancel() {
        task.withLock { $0 }?.cancel()
    }
}
