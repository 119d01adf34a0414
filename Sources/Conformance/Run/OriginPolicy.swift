import CommonFormats

/// The origins a run may send requests to: the backend's (`--backend`), and those the user named
/// (`--allow-origin`, an authorize URL given on the command line). A URL a backend hands out, in
/// its client settings or an answer (a D-TA's `certivoxURL`, a mailbox's activation link), is
/// followed only when its origin is one of them: a backend cannot send the grader elsewhere.
///
/// Origins compare as RFC 6454 has them: the scheme and host without case, the port with the
/// scheme's default filled in (`http://Host` is `http://host:80`); `ws` and `wss` count as `http`
/// and `https` (the client settings' WebSocket URLs are reached over HTTP). User information is
/// not part of the origin (`http://127.0.0.1:8005@other` goes to `other`).
public struct OriginPolicy: Sendable, Hashable {
    /// One origin: scheme, host and port.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        public var scheme: String
        public var host: String
        public var port: Int

        /// The origin of an absolute http(s) or ws(s) URL; nil for anything else.
        public init?(url: String) {
            guard let parts = URLParts(url), !parts.host.isEmpty else { return nil }
            switch parts.scheme {
            case "http", "ws": scheme = "http"
            case "https", "wss": scheme = "https"
            default: return nil
            }
            host = parts.host
            port = parts.port ?? (scheme == "https" ? 443 : 80)
        }

        /// `scheme://host:port` (IPv6 hosts in brackets).
        public var description: String {
            "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// The allowed origins, the backend's first.
    public let origins: [Origin]

    /// The backend's origin and each of `allowed` (a URL or an origin; one that is not http(s) is
    /// left out).
    public init(backendURL: String, allowed: [String] = []) {
        var origins: [Origin] = []
        for text in [backendURL] + allowed {
            if let origin = Origin(url: text), !origins.contains(origin) { origins.append(origin) }
        }
        self.origins = origins
    }

    /// Whether a request to `url` may be sent.
    public func allows(_ url: String) -> Bool {
        Origin(url: url).map(origins.contains) ?? false
    }
}
