/// A request that got no HTTP response: the host was not found, the connection was refused or
/// timed out, TLS failed, ... The SDK maps every transport error to `NETWORK_ERROR`, except
/// `replayDivergence`, which is `REPLAY_DIVERGED`.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad reason, for programmatic checks. New kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case hostNotFound, connectionRefused, timedOut, tls, invalidRequest, cancelled, responseTooLarge,
                replayDivergence, other
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        public static let hostNotFound = Kind(.hostNotFound)
        public static let connectionRefused = Kind(.connectionRefused)
        public static let timedOut = Kind(.timedOut)
        public static let tls = Kind(.tls)
        /// The request could not be built (bad URL, unsupported scheme, ...).
        public static let invalidRequest = Kind(.invalidRequest)
        /// The task that sent the request was cancelled.
        public static let cancelled = Kind(.cancelled)
        /// The response body was larger than the transport takes (the transfer was ended when it
        /// passed the limit; nothing of the body is kept).
        public static let responseTooLarge = Kind(.responseTooLarge)
        /// Nothing was sent: a replayed cassette's transport refused the request, because the re-run
        /// no longer does what the cassette recorded (at this request or an earlier event).
        public static let replayDivergence = Kind(.replayDivergence)
        public static let other = Kind(.other)

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    /// The transport's own message (libcurl's error buffer or `curl_easy_strerror`).
    public var message: String
    /// The URL of the failed request.
    public var url: String
    /// The transport's own error code (a `CURLcode` for the libcurl transport), if any.
    public var code: Int?

    public init(kind: Kind, message: String, url: String, code: Int? = nil) {
        self.kind = kind
        self.message = message
        self.url = url
        self.code = code
    }

    public var description: String {
        "\(kind) for \(url): \(message)" + (code.map { " (code \($0))" } ?? "")
    }
}
