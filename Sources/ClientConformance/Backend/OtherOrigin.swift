import CurlTransport
import ReferenceBackend
import SDKSeams
import Synchronization

/// A server on another loopback origin than the graded backend's (its own port): where the cases
/// point a redirect or a client setting, to see whether the client goes there.
///
/// * A trap (`forwarding` nil) answers every request 404 and records it in the current case's
///   log: a request there is one the client should not have sent (a redirect followed, with
///   whatever it carried).
/// * An alias forwards every request to the current case's backend and records it: another
///   origin that serves the protocol, as the open-source server's D-TA 2 on a port of its own
///   (docs/conformance.md), for the cases whose settings legitimately name one.
final class OtherOrigin: Sendable {
    let server: PlainHTTPServer
    private let state: State

    private init(server: PlainHTTPServer, state: State) {
        self.server = server
        self.state = state
    }

    var baseURL: String { server.baseURL }

    /// Starts the server on 127.0.0.1 (a free port).
    static func start(forwarding: Bool, transport: any HTTPTransport) async throws -> OtherOrigin {
        let state = State()
        let server = try await PlainHTTPServer.start(host: "127.0.0.1", port: 0, maximumBodySize: 1 << 20) { request in
            let (log, backend, base) = state.current
            var headers = HTTPHeaders()
            for field in request.headers { headers.append(name: field.name, value: field.value) }
            let observed = FaultRequest(
                method: request.method, url: base + request.target, target: request.target, segments: [], query: [:],
                headers: headers, body: request.body, endpoint: nil)
            var answer = FaultAnswer(
                status: 404, headers: ["Content-Type": "application/json; charset=utf-8"],
                body: Array(
                    #"{"message":"another origin than the backend's (conform --client): this request should not have been sent here"}"#
                        .utf8))
            if forwarding, let backend {
                answer = await forward(request, headers: headers, to: backend, transport: transport)
            }
            log?.add(ObservedExchange(request: observed, answer: answer))
            return .init(
                status: answer.status, headers: answer.headers.map { .init($0.name, $0.value) }, body: answer.body)
        }
        state.setBase(server.baseURL)
        return OtherOrigin(server: server, state: state)
    }

    /// The backend's answer to a request the alias forwards (marked as the alias's, so that the
    /// backend's log does not hold it twice).
    private static func forward(
        _ request: PlainHTTPServer.Request, headers: HTTPHeaders, to backend: String, transport: any HTTPTransport
    ) async -> FaultAnswer {
        var sent = HTTPHeaders()
        for field in headers where !["host", "content-length"].contains(field.name.lowercased()) {
            sent.append(name: field.name, value: field.value)
        }
        sent.set(name: ExchangeLog.actorField, value: "alias")
        let forwarded = HTTPRequest(
            method: HTTPMethod(rawValue: request.method) ?? .get, url: backend + request.target, headers: sent,
            body: request.body, timeout: 30)
        guard let response = try? await transport.send(forwarded) else {
            return FaultAnswer(status: 502, body: Array(#"{"message":"the backend did not answer"}"#.utf8))
        }
        var kept = HTTPHeaders()
        for field in response.headers
        where !["content-length", "date", "connection", "transfer-encoding"].contains(field.name.lowercased()) {
            kept.append(name: field.name, value: field.value)
        }
        return FaultAnswer(status: response.status, headers: kept, body: response.body)
    }

    /// Sends what comes from now on to `log` (and, for an alias, to `backendURL`).
    func serve(log: ExchangeLog?, backendURL: String?) { state.set(log: log, backendURL: backendURL) }

    func stop() async { await server.stop() }

    /// The case the server serves now, which the request handler reads.
    private final class State: Sendable {
        private struct Values {
            var log: ExchangeLog?
            var backendURL: String?
            var base = ""
        }
        private let values = Mutex(Values())

        var current: (ExchangeLog?, String?, String) { values.withLock { ($0.log, $0.backendURL, $0.base) } }

        func set(log: ExchangeLog?, backendURL: String?) {
            values.withLock {
                $0.log = log
                $0.backendURL = backendURL
            }
        }

        func setBase(_ base: String) { values.withLock { $0.base = base } }
    }
}
