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
/// Each call runs one blocking `curl_easy_perform` on a dispatch worker, so calls from several
/// tasks run in parallel. Cancelling the calling task aborts the transfer at libcurl's next
/// progress check (within about a second) with a `.cancelled` error.
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

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The libcurl version string, e.g. `libcurl/7.88.1 OpenSSL/3.0.x ...`.
    public static var libraryVersion: String {
        String(cString: curl_version())
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let options = self.options
        let cancellation = CancellationFlag()
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own for the blocking exchange: a worker of the global dispatch
                // queue would be taken from the bounded pool that Swift concurrency also runs on,
                // and many parallel requests to a server in the same process could starve it.
                let thread = Thread {
                    continuation.resume(returning: Result { () throws(TransportError) -> HTTPResponse in
                        try CurlExchange(request: request, options: options, cancellation: cancellation).perform()
                    })
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// The same exchange, blocking the calling thread.
    public func sendBlocking(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        try CurlExchange(request: request, options: options, cancellation: nil).perform()
    }
}
