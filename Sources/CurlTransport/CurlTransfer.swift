import CCurl
import Dispatch
import SDKSeams

/// One request handed to a `CurlMultiDriver`: the exchange to run, where its result goes, and,
/// while libcurl runs it, the state that must live until the driver has taken its easy handle out
/// of the multi handle (the handle itself, the response accumulator the callbacks write to, and
/// the header list).
///
/// The completion is called exactly once: by the driver thread (the transfer finished, failed to
/// start, was cancelled in flight, or its time limit ran out in the queue), or by the canceller
/// when the transfer still waited in the queue. The driver decides which, under its lock, by
/// taking the transfer out of its queue.
final class CurlTransfer: @unchecked Sendable {
    private(set) var exchange: CurlExchange
    private let completion: @Sendable (Result<HTTPResponse, TransportError>) -> Void
    /// When the request was handed to the driver (monotonic nanoseconds), to count the wait in the
    /// queue against its time limit.
    let submitted: UInt64
    /// When its time limit runs out (monotonic nanoseconds), if it has one.
    let deadline: UInt64?
    /// Set (under the driver's lock) once the transfer found every place taken and waited.
    var waitedForRoom = false

    /// The easy handle while the transfer is added to the multi handle; nil before and after.
    private(set) var curl: CurlHandle?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let accumulator: ResponseAccumulator

    init(exchange: CurlExchange, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        self.exchange = exchange
        accumulator = ResponseAccumulator(maximumBody: exchange.options.maximumResponseBody)
        self.completion = completion
        let now = DispatchTime.now().uptimeNanoseconds
        submitted = now
        deadline = exchange.timeLimit.map { now &+ UInt64(CurlExchange.milliseconds($0)) * 1_000_000 }
    }

    /// Sets `curl` up for the exchange, counting the time since submission as waited; on success
    /// the transfer holds `curl` until `finish`.
    func start(on curl: CurlHandle) throws(TransportError) {
        exchange.waited = Double(DispatchTime.now().uptimeNanoseconds &- submitted) / 1e9
        headerList = try exchange.configure(curl, accumulator: accumulator)
        self.curl = curl
    }

    /// The result of the transfer that libcurl finished with `code` (after `start`), and the new
    /// connections it opened; frees its header list and lets go of its handle.
    func finish(code: CURLcode) -> (result: Result<HTTPResponse, TransportError>, connectionsOpened: Int) {
        guard let curl else { return (.failure(exchange.noHandle()), 0) }
        let result = exchange.outcome(of: code, on: curl, accumulator: accumulator)
        let opened = curl.connectionsOpenedByLastExchange
        release()
        return (result, opened)
    }

    /// Frees the header list and lets go of the handle (after the driver removed it from the multi
    /// handle).
    func release() {
        curl_slist_free_all(headerList)
        headerList = nil
        curl = nil
    }

    /// The timeout of a request whose time limit ran out while it waited in the queue.
    func expiredWaiting() -> TransportError {
        var exchange = self.exchange
        exchange.waited = Double(DispatchTime.now().uptimeNanoseconds &- submitted) / 1e9
        return exchange.timedOutWaiting()
    }

    /// Delivers the result.
    func complete(_ result: Result<HTTPResponse, TransportError>) {
        completion(result)
    }

    deinit {
        curl_slist_free_all(headerList)
    }
}
