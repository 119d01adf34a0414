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
/// * The URL's path is sent as given: `.` and `..` segments are not folded (`CURLOPT_PATH_AS_IS`),
///   so a proxy forwards the target it received.
/// * A response body is taken up to `Options.maximumResponseBody` bytes (16 MiB by default): a
///   `Content-Length` over it ends the transfer before the body is read, and a body that grows
///   past it (chunked, or a length the server did not keep to) ends the transfer at once, the
///   bytes so far dropped; either is a `.responseTooLarge` error that names the limit. So the
///   memory one transfer holds stays within the limit, whatever the server sends.
///
/// Every call, from any transport in the process, is one transfer of a single libcurl multi
/// handle driven by one thread (`CurlMultiDriver`, started on the first request and ended after
/// 30 s without any). Its easy handles are reused and share its connection cache (at most 64
/// open connections), so a request to an origin that an earlier one talked to goes out on the
/// same connection (HTTP/1.1 keep-alive) with the same bytes as on a new one. Calls from several
/// tasks run in parallel on that one thread; beyond 64 at once they wait in order, and the wait
/// counts against their time limit (one that runs out while waiting times out unsent, with
/// libcurl's timeout message). Cancelling the calling task takes the transfer out at the driver's
/// next turn and answers a `.cancelled` error at once, or, if it still waits, answers it unsent.
/// `sendBlocking` waits on the calling thread while the driver thread runs the transfer.
public struct CurlTransport: HTTPTransport {
    /// Settings that apply to every request.
    public struct Options: Sendable, Hashable {
        /// Time limit for a request without its own `timeout`, in seconds; nil for none.
        public var defaultTimeout: Double?
        /// Time limit for establishing the connection, in seconds; nil for libcurl's default (300 s).
        public var connectTimeout: Double?
        /// Verify the server's TLS certificate and host name (on by default).
        public var verifyTLS: Bool
        /// The largest response body taken, in bytes (`defaultMaximumResponseBody` unless given);
        /// nil for no limit.
        public var maximumResponseBody: Int?
        /// The local address connections are made from (`CURLOPT_INTERFACE` with `host!`: an IP
        /// address such as 127.0.0.2, or a host name); nil for the system's choice. A connection
        /// from another address is never reused for such a request.
        public var localAddress: String?
        /// How long libcurl waits for a `100 Continue` before it sends the body of a request that
        /// carries `Expect: 100-continue` (`CURLOPT_EXPECT_100_TIMEOUT_MS`), in seconds; nil for
        /// libcurl's 1 s. A test sets it far above its request's time limit, so that only the
        /// server's interim response, never the timer, can let the body go.
        package var expectContinueWait: Double?

        public init(
            defaultTimeout: Double? = nil, connectTimeout: Double? = nil, verifyTLS: Bool = true,
            maximumResponseBody: Int? = CurlTransport.defaultMaximumResponseBody, localAddress: String? = nil
        ) {
            self.defaultTimeout = defaultTimeout
            self.connectTimeout = connectTimeout
            self.verifyTLS = verifyTLS
            self.maximumResponseBody = maximumResponseBody
            self.localAddress = localAddress
        }
    }

    /// The default of `Options.maximumResponseBody`: 16 MiB.
    public static let defaultMaximumResponseBody = 16 << 20

    public let options: Options
    /// The thread and multi handle that run the transfers.
    let driver: CurlMultiDriver

    public init(options: Options = Options()) {
        self.init(options: options, driver: .shared)
    }

    /// A transport on a driver of its own (tests bound it and read its statistics).
    package init(options: Options = Options(), driver: CurlMultiDriver) {
        self.options = options
        self.driver = driver
    }

    /// What the process-wide driver has done so far: threads, handles, transfers in flight,
    /// exchanges and the connections they opened.
    package static var sharedDriverStatistics: CurlMultiDriver.Statistics {
        CurlMultiDriver.shared.statistics
    }

    /// The libcurl version string, e.g. `libcurl/7.88.1 OpenSSL/3.0.x ...`.
    public static var libraryVersion: String {
        String(cString: curl_version())
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let cancellation = CancellationFlag()
        let exchange = CurlExchange(request: request, options: options, cancellation: cancellation)
        let driver = self.driver
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = CurlTransfer(exchange: exchange) { continuation.resume(returning: $0) }
                // Cancelled while it waits in the queue: answered here, at once. Cancelled later:
                // the driver takes it out at its next turn. Cancelled before this point: the flag
                // is set, and the driver answers without sending.
                cancellation.onCancel {
                    if driver.cancel(transfer) {
                        transfer.complete(.failure(transfer.exchange.cancelledBeforeSending()))
                    }
                }
                driver.submit(transfer)
            }
        } onCancel: {
            cancellation.cancel()
        }
        cancellation.dropHandler()
        return try result.get()
    }

    /// The same exchange, blocking the calling thread until the driver thread has run it.
    public func sendBlocking(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let outcome = BlockingOutcome()
        driver.submit(
            CurlTransfer(exchange: CurlExchange(request: request, options: options, cancellation: nil)) {
                outcome.deliver($0)
            })
        return try outcome.wait().get()
    }
}

/// The result of a blocking send, handed from the driver thread to the waiting caller.
private final class BlockingOutcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<HTTPResponse, TransportError>?

    func deliver(_ result: Result<HTTPResponse, TransportError>) {
        self.result = result
        done.signal()
    }

    /// Waits as long as the exchange takes: its time limits bound it (libcurl's, and the driver's
    /// for the wait in its queue).
    func wait() -> Result<HTTPResponse, TransportError> {
        done.wait()
        return result ?? .failure(TransportError(kind: .other, message: "no result", url: ""))
    }
}
