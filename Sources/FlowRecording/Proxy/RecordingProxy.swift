import OrderedJSON
import SDKSeams
import Synchronization

/// The core of `mpin-workbench proxy`: forwards each request a client sends to an upstream backend
/// through an `HTTPTransport` and records the exchange, as the client saw it, into a `Recorder`.
///
/// What goes upstream: the method, the request target (path and query, byte for byte), the header
/// fields in order except `hopByHopRequestFields` (and the fields a `Connection` field names), and
/// the body byte for byte. The transport sets `Host` and `Content-Length` for the upstream itself.
///
/// What comes back to the client: the status, the header fields in order except the hop-by-hop
/// ones, with `Content-Length` giving the length of the body sent, and the body. In both, the
/// upstream's origin (`http://host:port`, exactly as given) is replaced by the proxy's own base URL
/// (`OriginRewrite`), so a client that reads absolute URLs from the client settings keeps talking
/// through the proxy.
///
/// What is recorded is what the client saw: the request URL is the proxy's base URL with the
/// target, the response the one the client got (the date the listening server stamps on it aside),
/// the timings those of the upstream exchange. The cassette's `backend.url` should therefore be the
/// proxy's base URL: `serve --cassette` then rewrites it to its own, as for a recording made by
/// `record`. An exchange takes its place in the timeline when its request arrives (as in
/// `RecordingTransport`). A transport error (unreachable upstream, time limit) is recorded as one and
/// answered `502` with the body `serve --cassette` gives a recorded transport error.
///
/// Other origins (`routes`: a D-TA 2 the client settings name on its own origin) are covered under a
/// path prefix of the proxy's: a request whose path is the prefix or starts with it and `/` goes to
/// the route's origin without the prefix, and that origin in responses is rewritten to the proxy's
/// base URL with the prefix, so the client's D-TA traffic comes through the proxy too.
///
/// At most `maximumExchanges` requests are forwarded and recorded; later ones are answered `503`
/// and not recorded.
package final class RecordingProxy: Sendable {
    /// A request as the listening server received it.
    package struct Request: Sendable, Hashable {
        package var method: String
        /// The request target (`/rps/pass1?x=1`), or an absolute URL (whose origin is dropped).
        package var target: String
        package var headers: HTTPHeaders
        package var body: [UInt8]

        package init(method: String, target: String, headers: HTTPHeaders, body: [UInt8]) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
        }
    }

    /// The answer for the client, and what was recorded.
    package struct Answer: Sendable {
        package var status: Int
        package var headers: HTTPHeaders
        package var body: [UInt8]
        /// The recorded exchange and its index in the cassette's events; nil when the request was
        /// turned away (`maximumExchanges` reached) and nothing was recorded.
        package var recorded: (index: Int, exchange: CassetteEvent.HTTPExchange)?
    }

    /// Request fields not forwarded: the hop-by-hop fields of RFC 9110 §7.6.1, `Host` and
    /// `Content-Length` (the transport writes the upstream's), and `Expect` (the listening server
    /// has already answered it; the whole body is here).
    package static let hopByHopRequestFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect",
    ]

    /// Response fields not passed on: the hop-by-hop fields (the listening server frames the body).
    package static let hopByHopResponseFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    ]

    /// Another upstream origin, reached under a path prefix of the proxy's.
    package struct Route: Sendable, Hashable {
        /// `/dta2`: starts with `/`, no trailing `/`.
        package var prefix: String
        /// `scheme://host[:port]`.
        package var upstream: String

        package init(prefix: String, upstream: String) {
            self.prefix = prefix
            self.upstream = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        }
    }

    /// The upstream backend, `scheme://host[:port]`.
    package let upstream: String
    /// The other upstream origins, each under its prefix.
    package let routes: [Route]
    /// The proxy's own base URL, `http://host:port`, that clients use.
    package let baseURL: String
    /// The most exchanges forwarded and recorded (nil: no limit).
    package let maximumExchanges: Int?
    /// The time limit of one upstream exchange, in seconds (nil: the transport's own).
    package let timeout: Double?
    private let transport: any HTTPTransport
    private let recorder: Recorder
    private let actor: @Sendable (Request) -> EventActor
    private let admitted = Mutex((started: 0, completed: 0))

    /// - Parameters:
    ///   - upstream: the backend's origin, `scheme://host[:port]` (a trailing `/` is dropped).
    ///   - routes: other origins, each under a path prefix (see the type).
    ///   - baseURL: the proxy's own origin, where clients reach it.
    ///   - transport: what sends the requests upstream (libcurl in the command).
    ///   - header: the cassette's metadata; its `backend.url` should be `baseURL` (see the type).
    ///   - maximumExchanges: stop forwarding after this many (nil: no limit).
    ///   - timeout: the time limit of one upstream exchange.
    ///   - actor: who sent a request (the default: the SDK).
    package init(upstream: String, routes: [Route] = [], baseURL: String, transport: any HTTPTransport, header: Cassette,
                 maximumExchanges: Int? = nil, timeout: Double? = nil, actor: @escaping @Sendable (Request) -> EventActor = { _ in .sdk }) {
        self.upstream = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        self.routes = routes.sorted { $0.prefix.count > $1.prefix.count }
        self.baseURL = baseURL
        self.transport = transport
        self.recorder = Recorder(header: header)
        self.maximumExchanges = maximumExchanges
        self.timeout = timeout
        self.actor = actor
    }

    /// The cassette so far: the header and every exchange completed (those in flight are left out).
    package func cassette() -> Cassette { recorder.cassette() }

    /// How many exchanges have been forwarded and recorded so far.
    package var completedExchanges: Int { admitted.withLock { $0.completed } }

    /// How many exchanges are still waiting for the upstream.
    package var pendingExchanges: Int { recorder.pendingExchanges }

    /// Whether `maximumExchanges` have been forwarded and answered.
    package var isComplete: Bool {
        guard let maximumExchanges else { return false }
        return completedExchanges >= maximumExchanges
    }

    /// Forwards one request upstream, records the exchange and returns the client's answer.
    package func forward(_ request: Request) async -> Answer {
        let admittedNow = admitted.withLock { counts -> Bool in
            if let maximumExchanges, counts.started >= maximumExchanges { return false }
            counts.started += 1
            return true
        }
        guard admittedNow else {
            let document: JSONValue = .object([
                .init("error", .string("the proxy has recorded its \(maximumExchanges ?? 0) exchanges and is stopping")),
            ])
            return Answer(status: 503, headers: ["Content-Type": "application/json"], body: Array(JSONWriter.compact(document).utf8), recorded: nil)
        }
        defer { admitted.withLock { $0.completed += 1 } }

        let target = Self.pathAndQuery(request.target)
        var forwarded = HTTPHeaders()
        let named = Self.connectionOptions(request.headers)
        for field in request.headers.fields where !Self.hopByHopRequestFields.contains(field.name.lowercased()) && !named.contains(field.name.lowercased()) {
            forwarded.append(name: field.name, value: field.value)
        }
        var exchange = CassetteEvent.HTTPExchange(request: .init(method: request.method, url: baseURL + target, headers: forwarded, body: request.body))
        let (slot, step) = recorder.reserve()
        func finish() -> (index: Int, exchange: CassetteEvent.HTTPExchange) {
            recorder.fill(slot, with: CassetteEvent(actor: actor(request), step: step, .http(exchange)))
            return (slot, exchange)
        }

        guard let method = HTTPMethod(rawValue: request.method) else {
            let names = HTTPMethod.allCases.map(\.rawValue).joined(separator: ", ")
            exchange.error = .init(kind: TransportError.Kind.invalidRequest.description,
                                   message: "the proxy forwards \(names); not \(request.method)")
            return Self.transportErrorAnswer(exchange.error!, recorded: finish())
        }
        let outgoing = HTTPRequest(method: method, url: upstreamURL(target), headers: forwarded, body: request.body, timeout: timeout)
        do {
            let response = try await transport.send(outgoing)
            let rewrite = originRewrite
            let body = rewrite.apply(response.body)
            exchange.response = .init(status: response.status, headers: Self.clientHeaders(response.headers, rewrite: rewrite, length: body.count),
                                      body: body)
            exchange.timings = response.timings
            let recorded = finish()
            return Answer(status: response.status, headers: exchange.response!.headers, body: body, recorded: recorded)
        } catch {
            exchange.error = .init(error)
            return Self.transportErrorAnswer(exchange.error!, recorded: finish())
        }
    }

    /// Where a path and query goes: under the route whose prefix it starts with (the longest), else the upstream.
    package func upstreamURL(_ target: String) -> String {
        for route in routes where target.hasPrefix(route.prefix) {
            let rest = target.dropFirst(route.prefix.count)
            if rest.isEmpty { return route.upstream + "/" }
            if rest.hasPrefix("/") { return route.upstream + rest }
            if rest.hasPrefix("?") { return route.upstream + "/" + rest }
        }
        return upstream + target
    }

    /// The upstream origins in responses rewritten to the proxy's: the backend's to the base URL,
    /// each route's to the base URL with its prefix.
    package var originRewrite: OriginRewrite {
        OriginRewrite([(upstream, baseURL)] + routes.map { ($0.upstream, baseURL + $0.prefix) })
    }

    /// The path and query of a request target: the target itself, or an absolute URL without its origin.
    package static func pathAndQuery(_ target: String) -> String {
        if target.hasPrefix("/") { return target }
        guard target.contains("://") else { return "/" + target }
        let rest = target.dropFirst(URLText.origin(of: target).count)
        return rest.hasPrefix("/") ? String(rest) : "/" + rest
    }

    /// The names a `Connection` field lists (hop-by-hop too, RFC 9110 §7.6.1), lowercased.
    static func connectionOptions(_ headers: HTTPHeaders) -> Set<String> {
        Set(headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingOptionalWhitespace.lowercased() })
    }

    /// The upstream's response fields as the client gets them: hop-by-hop ones dropped, the origin
    /// rewritten in the values, `Content-Length` giving `length` (in the place of the upstream's, or last).
    static func clientHeaders(_ headers: HTTPHeaders, rewrite: OriginRewrite, length: Int) -> HTTPHeaders {
        let named = connectionOptions(headers)
        var out = HTTPHeaders()
        var lengthWritten = false
        for field in headers.fields {
            let name = field.name.lowercased()
            if hopByHopResponseFields.contains(name) || named.contains(name) { continue }
            if name == "content-length" {
                if !lengthWritten { out.append(name: field.name, value: String(length)) }
                lengthWritten = true
                continue
            }
            out.append(name: field.name, value: rewrite.apply(field.value))
        }
        if !lengthWritten { out.append(name: "Content-Length", value: String(length)) }
        return out
    }

    /// A transport error for the client: `502` with the body `serve --cassette` answers a recorded
    /// transport error with.
    static func transportErrorAnswer(_ failure: CassetteEvent.HTTPExchange.TransportFailure,
                                     recorded: (index: Int, exchange: CassetteEvent.HTTPExchange)) -> Answer {
        Answer(status: 502, headers: ["Content-Type": "application/json"], body: CassettePlayback.transportErrorBody(failure), recorded: recorded)
    }
}
