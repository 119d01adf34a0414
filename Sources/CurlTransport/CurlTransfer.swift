import Dispatch
import SDKSeams

/// One request handed to the worker pool: the exchange to run and where its result goes.
///
/// The completion is called exactly once: by the worker that ran the exchange, or when the
/// request is withdrawn while it still waits for a worker (cancelled, or its time limit ran out).
/// The pool decides which, under its lock, by taking the transfer out of its queue.
final class CurlTransfer: @unchecked Sendable {
    let exchange: CurlExchange
    private let completion: @Sendable (Result<HTTPResponse, TransportError>) -> Void
    /// When the request was handed to the pool (monotonic nanoseconds), to count the wait for a
    /// worker against its time limit.
    let submitted: UInt64

    init(exchange: CurlExchange, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        self.exchange = exchange
        self.completion = completion
        submitted = DispatchTime.now().uptimeNanoseconds
    }

    /// Runs the exchange on `curl` (nil when the worker could not make a handle); returns its
    /// result, for `complete`, and how many new connections it opened.
    func run(on curl: CurlHandle?) -> (result: Result<HTTPResponse, TransportError>, connectionsOpened: Int) {
        var exchange = self.exchange
        exchange.waited = Double(DispatchTime.now().uptimeNanoseconds &- submitted) / 1e9
        guard let curl else { return (.failure(exchange.noHandle()), 0) }
        let result = Result { () throws(TransportError) -> HTTPResponse in try exchange.perform(on: curl) }
        return (result, curl.connectionsOpenedByLastExchange)
    }

    /// Delivers the result of a run.
    func complete(_ result: Result<HTTPResponse, TransportError>) {
        completion(result)
    }

    /// Delivers the timeout of a request whose time limit ran out while it waited for a worker.
    func expire() {
        var exchange = self.exchange
        exchange.waited = Double(DispatchTime.now().uptimeNanoseconds &- submitted) / 1e9
        completion(.failure(exchange.timedOutWaiting()))
    }

    /// Delivers the error of a request cancelled before any worker took it up.
    func withdraw() {
        completion(.failure(exchange.cancelledBeforeSending()))
    }
}
