import CommonFormats
import CurlTransport
import Dispatch
import FlowRecording
import HTTPServing
import Logging
import MilagroProtocol
import ProtocolChecks
import Scenarios
import Synchronization

/// A recording proxy served on a port until it is stopped: `proxy`'s session. It listens with
/// `PlainHTTPServer`, forwards each request through a `RecordingProxy` (libcurl), checks each
/// recorded exchange with a `FlowChecker` and says the check's lines through `say`, so that each
/// exchange's lines stay together, and stops on the first signal (after the exchanges in flight),
/// after `--max-exchanges`, or, on a second signal, at once (the exchanges in flight aborted).
package final class ProxySession: Sendable {
    /// What the session serves and forwards to.
    package struct Configuration: Sendable {
        /// The origin requests go to (`URLText.origin` form).
        package var upstream: String
        /// Other origins under path prefixes (`--route`).
        package var routes: [RecordingProxy.Route]
        package var host: String
        package var port: Int
        /// Stop after this many exchanges (nil: at a signal).
        package var maximumExchanges: Int?
        /// Time limit of one upstream exchange, in seconds.
        package var timeout: Double
        /// The largest upstream body recorded and passed on, in bytes.
        package var maximumBodySize: Int
        /// The `Via` value added to every forwarded request (nil: none, `--allow-admin`).
        package var via: String?
        /// How long a client's request body may take after its head.
        package var bodyDeadline: BodyDeadline
        /// The file the cassette will be written to, for the banner.
        package var out: String
        package var logger: Logger
        /// The cassette's metadata for the proxy's base URL (`ProxyCassette.header`).
        package var header: @Sendable (_ baseURL: String) -> Cassette

        package init(
            upstream: String, routes: [RecordingProxy.Route], host: String, port: Int, maximumExchanges: Int?,
            timeout: Double, maximumBodySize: Int, via: String?, bodyDeadline: BodyDeadline, out: String,
            logger: Logger, header: @escaping @Sendable (_ baseURL: String) -> Cassette
        ) {
            self.upstream = upstream
            self.routes = routes
            self.host = host
            self.port = port
            self.maximumExchanges = maximumExchanges
            self.timeout = timeout
            self.maximumBodySize = maximumBodySize
            self.via = via
            self.bodyDeadline = bodyDeadline
            self.out = out
            self.logger = logger
            self.header = header
        }
    }

    private let proxyState = Mutex<RecordingProxy?>(nil)
    private let checker = Mutex(FlowChecker())
    private let signals = Mutex(0)
    private let server: ServerTaskControl
    private let say: @Sendable (String) -> Void

    /// A session that says its lines (banner, each exchange's check, what a signal does) through
    /// `say`, one line per call.
    package init(say: @escaping @Sendable (String) -> Void) {
        self.say = say
        self.server = ServerTaskControl(announce: { text in say(text.hasSuffix("\n") ? String(text.dropLast()) : text) }
        )
    }

    /// The proxy, once the server listens.
    package var proxy: RecordingProxy? { proxyState.withLock { $0 } }

    /// What the checks found so far.
    package var summary: FlowCheckSummary { checker.withLock { $0.summary } }

    /// Serves `configuration` until the session stops; throws the error that ended the server
    /// (a port in use, say). Ctrl-C and SIGTERM call `signalled()` meanwhile.
    package func run(_ configuration: Configuration) async throws {
        await server.run(
            { [self] in
                let server = try await PlainHTTPServer.start(
                    host: configuration.host, port: configuration.port, logger: configuration.logger, logRequests: true,
                    name: "proxy", bodyTimeout: configuration.bodyDeadline, keepsRequestTargets: true
                ) { request in
                    await self.handle(request)
                }
                // The transport stops reading one byte past the cap, so the proxy sees the overflow
                // without holding the whole body.
                let transport = CurlTransport(
                    options: .init(
                        defaultTimeout: configuration.timeout, connectTimeout: min(configuration.timeout, 10),
                        maximumResponseBody: configuration.maximumBodySize))
                let proxy = RecordingProxy(
                    upstream: configuration.upstream, routes: configuration.routes, baseURL: server.baseURL,
                    transport: transport, header: configuration.header(server.baseURL),
                    maximumExchanges: configuration.maximumExchanges, timeout: configuration.timeout,
                    maximumBodySize: configuration.maximumBodySize, via: configuration.via
                ) { request in
                    self.actor(request)
                }
                proxyState.withLock { $0 = proxy }
                say(Self.banner(proxy: proxy, out: configuration.out))
                await withTaskCancellationHandler {
                    await server.wait()
                } onCancel: {
                    Task { await server.stop() }
                }
            },
            onSignal: { [self] in signalled() })
        if let error = server.error { throw error }
    }

    /// The cassette of what was recorded (nil before the server listened), its backend flavour
    /// `mfa-platform` when a request carried the platform's `X-MIRACL-CID`.
    package func cassette() -> Cassette? {
        guard let proxy else { return nil }
        var cassette = proxy.cassette()
        if cassette.httpExchanges.contains(where: { $0.exchange.request.headers.contains("X-MIRACL-CID") }) {
            cassette.backend.flavour = BackendFlavour.mfaPlatform.rawValue
        }
        return cassette
    }

    /// A Ctrl-C or SIGTERM: the first stops the server once the exchanges in flight are answered;
    /// the next aborts them (`RecordingProxy.abort`) and, should the server still not have stopped
    /// 1.5 s later, releases `run`'s wait so that what was recorded is written.
    package func signalled() {
        let count = signals.withLock { count -> Int in
            count += 1
            return count
        }
        let pending = proxy?.pendingExchanges ?? 0
        let exchanges = "\(pending) exchange\(pending == 1 ? "" : "s")"
        if count == 1 {
            if pending > 0 {
                say("waiting for \(exchanges) in flight; Ctrl-C again aborts \(pending == 1 ? "it" : "them")")
            }
            server.stop()
            return
        }
        if pending > 0 { say("aborting \(exchanges) in flight") }
        proxy?.abort()
        server.stop()
        let server = self.server
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { server.release() }
    }

    /// Who sent a request (`FlowChecker.actor`), from what it is and the settings seen so far.
    private func actor(_ request: RecordingProxy.Request) -> EventActor {
        let path = URLText.path(RecordingProxy.pathAndQuery(request.target))
        return checker.withLock { $0.actor(method: request.method, path: path, body: request.body) }
    }

    /// Forwards one client request and says what the checks found in the exchange recorded.
    private func handle(_ request: PlainHTTPServer.Request) async -> PlainHTTPServer.Response {
        guard let proxy else {
            return .init(status: 503, headers: [.init("Content-Type", "text/plain")], body: Array("starting\n".utf8))
        }
        let answer = await proxy.forward(
            .init(method: request.method, target: request.target, headers: request.httpHeaders, body: request.body))
        if let (index, exchange) = answer.recorded {
            checker.withLock { checker in
                say(checker.check(exchange, index: index).text)
            }
        }
        if proxy.isComplete, !server.stopRequested {
            let count = proxy.completedExchanges
            say("recorded \(count) exchange\(count == 1 ? "" : "s") (--max-exchanges): done")
            server.stop()
        }
        return .init(answer.response)
    }

    /// What the proxy listens on, forwards to and rewrites, and where it records.
    package static func banner(proxy: RecordingProxy, out: String) -> String {
        var lines = [
            "proxy listening on \(proxy.baseURL), forwarding to \(proxy.upstream)",
            "  backend (SDK setting): \(proxy.baseURL)",
            "  \(proxy.upstream) in responses is rewritten to \(proxy.baseURL)",
        ]
        for route in proxy.routes {
            lines.append(
                "  \(route.prefix)/… goes to \(route.upstream), rewritten in responses to \(proxy.baseURL + route.prefix)"
            )
        }
        lines.append(
            "  recording to \(out)"
                + (proxy.maximumExchanges.map { " (stops after \($0) exchange\($0 == 1 ? "" : "s"))" } ?? ""))
        lines.append(
            "Ctrl-C writes the cassette and prints the summary (a second Ctrl-C aborts the exchanges in flight).")
        return lines.joined(separator: "\n")
    }

    /// What to add to the command line so that the origins no request went to come through the proxy.
    package static func routeHint(_ unseen: [FlowCheckSummary.UnseenOrigin]) -> String? {
        let missed = unseen.filter { $0.certainExchanges + $0.possibleExchanges > 0 }
        guard !missed.isEmpty else { return nil }
        let flags = missed.enumerated().map { "--route /upstream\($0.offset + 2)=\($0.element.origin)" }
        return
            "the client talked to \(missed.map(\.origin).joined(separator: ", ")) around the proxy; to record it too, add "
            + flags.joined(separator: " ")
    }

    /// The cassette's metadata: the backend is the proxy itself (what the client saw), with the
    /// upstream it forwarded to (where `record` can record the flow again); the scenario is the
    /// script given, else just a name (the file's). Replay compares by meaning (`json`): a proxied
    /// cassette holds HTTP exchanges only, no API results, crypto steps or random draws.
    package static func header(
        baseURL: String, name: String, script: ScenarioScript?, seed: String?, upstream: String? = nil,
        tool: Cassette.Tool
    ) -> Cassette {
        var header: Cassette
        if let script {
            header = ScenarioSession.header(
                for: script, backendURL: baseURL, embedded: false, seed: seed ?? script.seed, tool: tool)
        } else {
            header = Cassette(
                tool: tool, curve: "BN254CX", scenario: .init(name: name),
                backend: .init(url: baseURL, flavour: BackendFlavour.milagro.rawValue))
        }
        header.replayMode = .json
        header.backend.upstream = upstream
        return header
    }
}
