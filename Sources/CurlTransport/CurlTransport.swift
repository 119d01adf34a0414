import CCurl
import Dispatch
import Foundation
import SDKSeams

/// The HTTP seam over libcurl: exact request and response bytes, every status returned as a
/// response, per-phase timings, transport failures with libcurl's message.
///
/// What goes on the wire, for reproducible recordings:
/// * HTTP/1.1; redirects are not followed; 401 challenges are not answered; no `Accept-Encoding`,
///   so bodies arrive exactly as the server sent them (chunked framing removed).
/// * The request's header fields in their order. libcurl adds `Host` and `Content-Length`; its own
///   defaults `Accept: */*`, `Expect: 100-continue` and the form `Content-Type` are suppressed
///   unless the request sets them. An empty header value is sent as an empty field.
/// * `POST`, `PUT` and `PATCH` always send their body (`Content-Length: 0` when empty); `GET`,
///   `DELETE` and `OPTIONS` send one only when it is non-empty.
/// * Only `http` and `https` URLs are accepted.
///
/// Each call runs one blocking `curl_easy_perform` on a worker of a bounded thread pool
/// (`CurlWorkerPool`, at most 64 threads shared by every transport in the process), each worker
/// reusing one easy handle, so a request to an origin that an idle worker already talks to goes
/// out on the same connection (HTTP/1.1 keep-alive) with the same bytes as on a new one. Calls
/// from several tasks run in parallel; beyond 64 at once they wait for a worker, and the wait
/// counts against their time limit. Cancelling the calling task aborts the transfer at libcurl's
/// next progress check (within about a second) with a `.cancelled` error, or at once if it still
/// waits for a worker.
public struct CurlTransport: HTTPTransport {
    /// Settings that apply to every request.
    public struct Options: Sendable, Hashable {
        /// Time limit for a request without its own `timeout`, in seconds; nil for none.
        public var defaultTimeout: Double?
        /// Time limit for establishing the connection, in seconds; nil for libcurl's default (300 s).
        public var connectTimeout: Double?
        /// Verify the server's TLS certificate and host name (on by default).
        public var verifyTLS: Bool

        public init(defaultTimeout: Double? = nil, connectTimeout: Double? = nil, verifyTLS: Bool = true) {
            self.defaultTimeout = defaultTimeout
            self.connectTimeout = connectTimeout
            self.verifyTLS = verifyTLS
        }
    }

    public let options: Options
    /// The worker threads and their reusable handles.
    let pool: CurlWorkerPool

    public init(options: Options = Options()) {
        self.init(options: options, pool: .shared)
    }

    /// A transport on a pool of its own (tests bound it and read its statistics).
    package init(options: Options = Options(), pool: CurlWorkerPool) {
        self.options = options
        self.pool = pool
    }

    /// What the process-wide pool has done so far: threads, handles, exchanges and the
    /// connections they opened.
    package static var sharedPoolStatistics: CurlWorkerPool.Statistics {
        CurlWorkerPool.shared.statistics
    }

    /// The libcurl version string, e.g. `libcurl/7.88.1 OpenSSL/3.0.x ...`.
    public static var libraryVersion: String {
        String(cString: curl_version())
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let cancellation = CancellationFlag()
        let exchange = CurlExchange(request: request, options: options, cancellation: cancellation)
        let pool = self.pool
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = CurlTransfer(exchange: exchange) { continuation.resume(returning: $0) }
                // Cancelled while it waits for a worker: answered at once. Cancelled before this
                // point: the flag is set, and the worker answers without sending.
                cancellation.onCancel {
                    if pool.withdraw(transfer) { transfer.withdraw() }
                }
                pool.submit(transfer)
            }
        } onCancel: {
            cancellation.cancel()
        }
        cancellation.dropHandler()
        return try result.get()
    }

    /// The same exchange, blocking the calling thread until a worker has run it.
    public func sendBlocking(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let outcome = BlockingOutcome()
        pool.submit(CurlTransfer(exchange: CurlExchange(request: request, options: options, cancellation: nil)) { outcome.deliver($0) })
        return try outcome.wait().get()
    }
}

/// The result of a blocking send, handed from the worker to the waiting caller.
private final class BlockingOutcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<HTTPResponse, TransportError>?

    func deliver(_ result: Result<HTTPResponse, TransportError>) {
        self.result = result
        done.signal()
    }

    /// Waits as long as the exchange takes: its time limits bound it, as they bound a blocking
    /// `curl_easy_perform`.
    func wait() -> Result<HTTPResponse, TransportError> {
        done.wait()
        return result ?? .failure(TransportError(kind: .other, message: "no result", url: ""))
    }
}
