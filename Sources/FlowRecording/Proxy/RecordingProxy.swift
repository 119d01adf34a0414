import CommonFormats
import OrderedJSON
import SDKSeams
import Synchronization

/// The core of `mpin-workbench proxy`: forwards each request a client sends to an upstream backend
/// through an `HTTPTransport` and records the exchange, as the client saw it, into a `Recorder`.
///
/// What goes upstream: the method, the request target (path and query, byte for byte: `..` and
/// `.` segments are sent as received, not folded), the header
/// fields in order except `hopByHopRequestFields` (and the fields a `Connection` field names), then
/// the proxy's own `Via` field (`via`, RFC 9110 §7.6.3), and the body byte for byte. The transport
/// sets `Host` and `Content-Length` for the upstream itself. The `Via` field tells the reference
/// backend that the request came through a proxy, so that its operator endpoints (`/admin/*`,
/// `/devicesecurity/admin/*`), which answer only clients on its machine, refuse it even though the
/// proxy connects from loopback: the proxy's own clients may be anywhere. The proxy adds it after
/// the client's fields, so no client can take it away (naming it in `Connection` drops only the
/// client's own); a client can send a `Via` of its own, which only refuses it more. Without `via`
/// (`proxy --allow-admin`) the backend answers the proxy's clients as it answers the proxy.
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
/// Nothing is recorded that the cassette reader (`CassetteFile.decode`) would refuse: each exchange
/// is read back through it before it takes its place. An upstream answer it would refuse (more
/// than `CassetteLimits.maximumHeaders` fields, a field name that is not a token, a control
/// character in a value), a body over `maximumBodySize`, or one whose event would take the
/// cassette's events past `maximumRecordedBytes` (as the file writes them), is recorded as a
/// transport error of kind `other` that says why, and the client gets that error's `502`: what is
/// recorded is what the client saw. Once the events hold `maximumRecordedBytes`, requests are
/// answered `503` and not recorded, as past `maximumExchanges`. A request the reader would refuse
/// is answered `400` and neither forwarded nor recorded.
///
/// Only origin-form targets (`/path?query`) are forwarded: `CONNECT` is answered `405` (with
/// `Allow`, and the reason in `Proxy-Status` as well, since a server sends no body with an
/// answer to `CONNECT`; the listening server then closes the connection), an absolute-form (`http://host/path`), authority-form or `*` target `400`, each with a
/// JSON body that says why; none is forwarded or recorded.
///
/// `abort()` (the command's second Ctrl-C) cancels the exchanges in flight: each is recorded as a
/// `cancelled` transport error and answered `502` as soon as the transport lets go of it (libcurl's
/// at its driver's next turn); later requests are answered `503`.
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
        /// The request target as sent: `/rps/pass1?x=1` is forwarded; any other form is refused (see the type).
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

        /// The answer as a response (what the listening server sends).
        package var response: HTTPResponse { HTTPResponse(status: status, headers: headers, body: body) }
    }

    /// Request fields not forwarded: the hop-by-hop fields of RFC 9110 §7.6.1, `Host` and
    /// `Content-Length` (the transport writes the upstream's), and `Expect` (the listening server
    /// has already answered it; the whole body is here).
    package static let hopByHopRequestFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
        "content-length", "expect",
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

        /// A route written `PREFIX=ORIGIN` (`proxy --route /dta2=http://127.0.0.1:8001`): nil unless
        /// the prefix is a path of one or more segments with no trailing `/`, no empty segment and
        /// no `?`, `#`, `=` or space, and the origin one that `URLText.origin` takes.
        package init?(argument text: String) {
            guard let equals = text.firstIndex(of: "=") else { return nil }
            let prefix = String(text[..<equals]), target = String(text[text.index(after: equals)...])
            guard prefix.hasPrefix("/"), prefix.count > 1, !prefix.hasSuffix("/"),
                !prefix.contains(where: { "?#= ".contains($0) }), !prefix.contains("//"),
                let origin = URLText.origin(target)
            else { return nil }
            self.init(prefix: prefix, upstream: origin)
        }
    }

    /// The `Via` field value the proxy adds to every request it forwards, by default.
    package static let defaultVia = "1.1 mpin-workbench-proxy"

    /// The upstream backend, `scheme://host[:port]`.
    package let upstream: String
    /// The `Via` value added to every forwarded request (not recorded: the cassette holds what the
    /// client sent); nil adds none.
    package let via: String?
    /// The other upstream origins, each under its prefix.
    package let routes: [Route]
    /// The proxy's own base URL, `http://host:port`, that clients use.
    package let baseURL: String
    /// The most exchanges forwarded and recorded (nil: no limit).
    package let maximumExchanges: Int?
    /// The time limit of one upstream exchange, in seconds (nil: the transport's own).
    package let timeout: Double?
    /// The largest upstream body recorded and passed on; a larger one is a recorded transport error.
    package let maximumBodySize: Int
    /// The most bytes the cassette's events take in its file: with room left for the header, the
    /// error events of exchanges in flight and redaction, the file stays within what its reader
    /// accepts (`InputFile.defaultLimit`, 256 MiB).
    package let maximumRecordedBytes: Int
    private let transport: any HTTPTransport
    private let recorder: Recorder
    private let actor: @Sendable (Request) -> EventActor
    private let admitted = Mutex((started: 0, completed: 0))
    private let flight = Mutex(Flight())
    /// The size of the header alone in the file, taken from a probe's to give its event's.
    private let headerBytes: Int

    /// The default of `maximumBodySize`: 16 MiB.
    package static let defaultMaximumBodySize = 16 << 20
    /// The default of `maximumRecordedBytes`: 160 MiB.
    package static let defaultMaximumRecordedBytes = 160 << 20

    /// The upstream exchanges under way, whether `abort()` was called, the body bytes recorded.
    private struct Flight {
        var next = 0
        var tasks: [Int: Task<HTTPResponse, any Error>] = [:]
        var aborted = false
        var recordedBytes = 0
    }

    /// - Parameters:
    ///   - upstream: the backend's origin, `scheme://host[:port]` (a trailing `/` is dropped).
    ///   - routes: other origins, each under a path prefix (see the type).
    ///   - baseURL: the proxy's own origin, where clients reach it.
    ///   - transport: what sends the requests upstream (libcurl in the command).
    ///   - header: the cassette's metadata; its `backend.url` should be `baseURL` (see the type).
    ///   - maximumExchanges: stop forwarding after this many (nil: no limit).
    ///   - timeout: the time limit of one upstream exchange.
    ///   - maximumBodySize: the largest upstream body recorded (see the type).
    ///   - maximumRecordedBytes: the most bytes of the cassette's events (see the type).
    ///   - via: the `Via` value added to each forwarded request (see the type); nil for none.
    ///   - actor: who sent a request (the default: the SDK).
    package init(
        upstream: String, routes: [Route] = [], baseURL: String, transport: any HTTPTransport, header: Cassette,
        maximumExchanges: Int? = nil, timeout: Double? = nil, maximumBodySize: Int = defaultMaximumBodySize,
        maximumRecordedBytes: Int = defaultMaximumRecordedBytes, via: String? = defaultVia,
        actor: @escaping @Sendable (Request) -> EventActor = { _ in .sdk }
    ) {
        self.via = via
        self.upstream = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        self.routes = routes.sorted { $0.prefix.count > $1.prefix.count }
        self.baseURL = baseURL
        self.transport = transport
        self.recorder = Recorder(header: header)
        self.maximumExchanges = maximumExchanges
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.maximumRecordedBytes = maximumRecordedBytes
        headerBytes = recorder.header.canonicalBytes.count
        self.actor = actor
    }

    /// Cancels the exchanges in flight (each recorded as a `cancelled` transport error and answered
    /// `502`) and turns later requests away with `503`.
    package func abort() {
        let tasks = flight.withLock { flight -> [Task<HTTPResponse, any Error>] in
            flight.aborted = true
            return Array(flight.tasks.values)
        }
        for task in tasks { task.cancel() }
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
        if let refusal = Self.refusal(method: request.method, target: request.target) { return refusal }
        if flight.withLock({ $0.aborted }) { return Self.refused(503, "the proxy is stopping") }
        let target = request.target
        var forwarded = HTTPHeaders()
        let named = Self.connectionOptions(request.headers)
        for field in request.headers.fields
        where !Self.hopByHopRequestFields.contains(field.name.lowercased()) && !named.contains(field.name.lowercased())
        {
            forwarded.append(name: field.name, value: field.value)
        }
        var exchange = CassetteEvent.HTTPExchange(
            request: .init(method: request.method, url: baseURL + target, headers: forwarded, body: request.body))
        exchange.error = .init(kind: "other", message: "")
        if let reason = readBack(exchange).refusal {
            return Self.refused(400, "the request cannot be recorded: \(reason)")
        }
        exchange.error = nil
        let recordedBytes = flight.withLock { $0.recordedBytes }
        guard recordedBytes < maximumRecordedBytes else {
            return Self.refused(
                503,
                "the cassette holds \(recordedBytes) bytes of events, the most the proxy records in one; it records no more"
            )
        }

        let admittedNow = admitted.withLock { counts -> Bool in
            if let maximumExchanges, counts.started >= maximumExchanges { return false }
            counts.started += 1
            return true
        }
        guard admittedNow else {
            return Self.refused(503, "the proxy has recorded its \(maximumExchanges ?? 0) exchanges and is stopping")
        }
        defer { admitted.withLock { $0.completed += 1 } }
        let (slot, step) = recorder.reserve()
        func finish(size: Int? = nil) -> (index: Int, exchange: CassetteEvent.HTTPExchange) {
            let bytes = size ?? readBack(exchange).size
            flight.withLock { $0.recordedBytes += bytes }
            recorder.fill(slot, with: CassetteEvent(actor: actor(request), step: step, .http(exchange)))
            return (slot, exchange)
        }

        guard let method = HTTPMethod(rawValue: request.method) else {
            let names = HTTPMethod.allCases.map(\.rawValue).joined(separator: ", ")
            exchange.error = .init(
                kind: TransportError.Kind.invalidRequest.description,
                message: "the proxy forwards \(names); not \(request.method)")
            return Self.transportErrorAnswer(exchange.error!, recorded: finish())
        }
        var upstreamHeaders = forwarded
        if let via { upstreamHeaders.append(name: "Via", value: via) }
        let outgoing = HTTPRequest(
            method: method, url: upstreamURL(target), headers: upstreamHeaders, body: request.body, timeout: timeout)
        let response: HTTPResponse
        switch await send(outgoing) {
        case .response(let received): response = received
        case .failure(let failure):
            exchange.error = failure
            return Self.transportErrorAnswer(failure, recorded: finish())
        }
        guard response.body.count <= maximumBodySize else {
            exchange.error = .init(
                kind: "other",
                message: "the upstream's body is more than \(maximumBodySize) bytes, the most the proxy records")
            return Self.transportErrorAnswer(exchange.error!, recorded: finish())
        }
        let rewrite = originRewrite
        let body = rewrite.apply(response.body)
        exchange.response = .init(
            status: response.status,
            headers: Self.clientHeaders(response.headers, rewrite: rewrite, length: body.count),
            body: body)
        exchange.timings = response.timings
        let (refusal, size) = readBack(exchange)
        if let refusal {
            exchange.response = nil
            exchange.error = .init(kind: "other", message: "the upstream's answer cannot be recorded: \(refusal)")
            return Self.transportErrorAnswer(exchange.error!, recorded: finish())
        }
        guard flight.withLock({ $0.recordedBytes }) + size <= maximumRecordedBytes else {
            exchange.response = nil
            exchange.error = .init(
                kind: "other",
                message: "the upstream's answer would take the cassette past \(maximumRecordedBytes) "
                    + "bytes of events, the most the proxy records in one")
            return Self.transportErrorAnswer(exchange.error!, recorded: finish())
        }
        return Answer(
            status: response.status, headers: exchange.response!.headers, body: body, recorded: finish(size: size))
    }

    /// Sends `request` upstream in a task of its own that `abort()` (or the caller's cancellation)
    /// can cancel; a cancellation by `abort()` is said as such.
    private func send(_ request: HTTPRequest) async -> Outcome {
        let transport = self.transport
        let task = Task<HTTPResponse, any Error> { try await transport.send(request) }
        let (id, aborted) = flight.withLock { flight in
            flight.next += 1
            flight.tasks[flight.next] = task
            return (flight.next, flight.aborted)
        }
        if aborted { task.cancel() }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        let abortedNow = flight.withLock { flight in
            flight.tasks[id] = nil
            return flight.aborted
        }
        switch result {
        case .success(let response): return .response(response)
        case .failure(let error):
            if abortedNow, (error as? TransportError)?.kind == .cancelled || error is CancellationError {
                return .failure(
                    .init(
                        kind: TransportError.Kind.cancelled.description,
                        message: "the proxy was stopped while the exchange was in flight"))
            }
            if let error = error as? TransportError { return .failure(.init(error)) }
            return .failure(.init(kind: TransportError.Kind.other.description, message: "\(error)"))
        }
    }

    /// What the upstream gave: a response, or the transport error to record.
    private enum Outcome {
        case response(HTTPResponse)
        case failure(CassetteEvent.HTTPExchange.TransportFailure)
    }

    /// `exchange` read back through the cassette reader in a cassette of its own with this proxy's
    /// header (`CassetteFile.readBack`): why the reader refuses it (nil when it takes it), and the
    /// bytes its event takes in the file.
    private func readBack(_ exchange: CassetteEvent.HTTPExchange) -> (refusal: String?, size: Int) {
        CassetteFile.readBack(exchange, header: recorder.header, headerBytes: headerBytes)
    }

    /// The answer to a request that is not forwarded: `CONNECT` (405) or a target that is not in
    /// origin form (400); nil for one that is forwarded.
    static func refusal(method: String, target: String) -> Answer? {
        if method.uppercased() == "CONNECT" {
            let reason = "the proxy is not a tunnel: it forwards requests to its upstream and does not take CONNECT"
            var answer = refused(405, reason)
            answer.headers.append(name: "Allow", value: HTTPMethod.allCases.map(\.rawValue).joined(separator: ", "))
            // HTTP/1.1 servers (SwiftNIO's encoder among them) send no body with an answer to
            // CONNECT: the reason travels in `Proxy-Status` (RFC 9209) too.
            answer.headers.append(
                name: "Proxy-Status", value: "mpin-workbench; error=http_request_denied; details=\"\(reason)\"")
            return answer
        }
        guard target.hasPrefix("/") else {
            return refused(
                400,
                "the request target \(JSONDiff.brief(.string(String(target.prefix(200))))) is not in origin-form (/path?query); "
                    + "the proxy stands in for its upstream and takes no absolute-form, authority-form or * target")
        }
        return nil
    }

    /// An answer that records nothing: `status` with `{"error": message}`.
    static func refused(_ status: Int, _ message: String) -> Answer {
        let document: JSONValue = .object([.init("error", .string(message))])
        return Answer(
            status: status, headers: ["Content-Type": "application/json"],
            body: Array(JSONWriter.compact(document).utf8), recorded: nil)
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
        Set(
            headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map {
                $0.trimmingOptionalWhitespace.lowercased()
            })
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
    static func transportErrorAnswer(
        _ failure: CassetteEvent.HTTPExchange.TransportFailure,
        recorded: (index: Int, exchange: CassetteEvent.HTTPExchange)
    ) -> Answer {
        Answer(
            status: 502, headers: ["Content-Type": "application/json"],
            body: CassettePlayback.transportErrorBody(failure), recorded: recorded)
    }
}
