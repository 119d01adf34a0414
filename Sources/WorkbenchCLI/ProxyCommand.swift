import ArgumentParser
import CommonFormats
import CurlTransport
import Dispatch
import FileAccess
import FlowRecording
import Foundation
import HTTPServing
import Logging
import MilagroProtocol
import MilagroRecording
import ProtocolChecks
import SDKSeams
import Scenarios
import Synchronization

/// `mpin-workbench proxy --upstream URL --out FILE`: a recording proxy between any M-Pin client and
/// its backend, checking the protocol as it goes.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Record any client's session: forward to a backend, check the M-Pin protocol, write a cassette.",
        discussion: """
            Listens on --host/--port (loopback by default) and forwards every request to the --upstream \
            backend through libcurl: method, path and query, header fields in order (hop-by-hop fields, \
            Host, Content-Length and Expect aside) and body, byte for byte. The upstream's origin in \
            response bodies and header values (absolute URLs in the client settings, a Location) is \
            rewritten to the proxy's own, so the client keeps talking through it. Each exchange is \
            recorded as the client saw it, under the proxy's URL, with the upstream timings; an \
            unreachable upstream or a time limit (--timeout) is recorded as a transport error and \
            answered 502. On Ctrl-C (or SIGTERM), or after --max-exchanges exchanges, the cassette is \
            written atomically to --out (redacted as `record` does) and can be served with \
            `cassette serve`, shown, diffed and diagrammed. The first Ctrl-C waits for the exchanges \
            in flight; a second (or a SIGTERM after it) aborts them, each recorded as a cancelled \
            transport error, and writes what was recorded within 2 s. A client's request body that has \
            not arrived --body-timeout seconds after its head (default 10) is answered 408, the \
            connection closed, and nothing forwarded or recorded.

            Every forwarded request carries the proxy's `Via: \(RecordingProxy.defaultVia)` (not \
            recorded), so the reference backend, whose operator endpoints (/admin/*: mailbox with \
            activation links and codes, revoke, restore, counts; /devicesecurity/admin/*) answer \
            only clients on its machine, refuses them to the proxy's clients (403) although the \
            proxy connects from loopback. --allow-admin forwards without it, so they answer every \
            client of the proxy. A --host that is not a loopback address prints a warning naming \
            what it exposes.

            Nothing is recorded that the cassette reader would refuse: an upstream answer it cannot \
            represent (more than 1000 header fields, a field name that is not a token, a control \
            character in a value), a body over --max-body bytes, or one that would take the \
            cassette past 160 MiB is recorded as a transport error that says why, and the \
            client gets the same 502; once the cassette holds 160 MiB, requests are answered 503 \
            and not recorded. The path and query are forwarded exactly as received (`..` \
            segments are not folded). CONNECT is answered 405 (the reason in Proxy-Status; the \
            connection is closed) and an absolute-form, authority-form or * target 400 with a JSON \
            body saying why; neither is forwarded or recorded.

            A client may talk to other origins than the backend's: the open-source server's settings \
            name D-TA 2 on its own origin (certivoxURL). Each --route PREFIX=ORIGIN covers one: \
            requests under PREFIX (such as /dta2) go to ORIGIN without the prefix, and ORIGIN in \
            responses is rewritten to the proxy's URL with PREFIX, so those exchanges are recorded \
            too. Origins the settings name that no request went to are listed in the summary, with \
            how many exchanges the client made there that the cassette lacks.

            Per exchange it prints what the M-Pin checks found (as `cassette check` does): the status \
            against docs/protocol.md §4, JSON bodies, hex lengths, the G1 points of shares, permits and \
            passes 1 and 2 (U, UT, V) on the curve, access-number check digits, time-permit dates, the \
            order of the flow, and who sent each request (the browser's access-number requests, polls \
            and login, else the SDK); each finding a failure, a warning or a note; at the end a summary. \
            Exit status 1 when a check failed (warnings and notes do not count), 2 when it could not \
            start or write.

            Examples:
              mpin-workbench proxy --upstream http://127.0.0.1:8005 --port 8006 --out Recordings/phone.json
              mpin-workbench proxy --upstream http://127.0.0.1:8005 --route /dta2=http://127.0.0.1:8001 --out flow.json
              mpin-workbench proxy --upstream http://127.0.0.1:8005 --scenario authenticate --seed s1 --max-exchanges 12 --out flow.json
            """
    )

    @Option(help: "The backend to forward to: an origin such as http://127.0.0.1:8005.")
    var upstream: String

    @Option(
        name: .customLong("route"),
        help: ArgumentHelp(
            "Another upstream origin under a path prefix, PREFIX=ORIGIN (such as /dta2=http://127.0.0.1:8001); repeatable.",
            valueName: "prefix=origin"))
    var routes: [String] = []

    @OptionGroup var listen: ListenOption

    var host: String { listen.host }
    var port: Int { listen.port }

    @Option(help: "The cassette file to write.")
    var out: String

    @Option(
        name: .customLong("max-exchanges"), parsing: .unconditional,
        help: "Stop after this many exchanges, 1 to 1000000 (default: at Ctrl-C).",
        transform: BoundedNumber.integer(ProxyCommand.exchangesRange))
    var maxExchanges: Int?

    @Option(
        parsing: .unconditional,
        help: "Time limit of one upstream exchange in seconds, more than 0 and at most 3600 (default 60).",
        transform: BoundedNumber.decimal(0...3_600, aboveLowerBound: true, unit: "seconds"))
    var timeout: Double = 60

    @Option(
        name: .customLong("max-body"), parsing: .unconditional,
        help:
            "The largest upstream body recorded and passed on, in bytes, 1 to 16777216 (default 16 MiB); a larger one is answered 502 and recorded as a transport error.",
        transform: BoundedNumber.integer(1...RecordingProxy.defaultMaximumBodySize))
    var maxBody = RecordingProxy.defaultMaximumBodySize

    @Option(
        name: .customLong("body-timeout"), parsing: .unconditional,
        help:
            "Seconds a client's request body may take after its head before a 408 and a close, not forwarded nor recorded (more than 0, at most 3600; default 10).",
        transform: BoundedNumber.decimal(0...BodyDeadline.maximumSeconds, aboveLowerBound: true, unit: "seconds"))
    var bodyTimeout = BodyDeadline.defaultSeconds

    @Option(
        parsing: .upToNextOption,
        help:
            "Fields to redact: 'default' (PIN, tokens, regOTT, shares, authOTT, ...), 'none', or field names (default: 'default' unless the upstream is on loopback)."
    )
    var redact: [String] = []

    @OptionGroup var logging: LogLevelOption

    @Flag(
        name: .customLong("allow-admin"),
        help:
            "Forward without the proxy's Via field, so that a backend on this machine answers its operator endpoints (/admin/*, /devicesecurity/admin/*) to the proxy's clients; by default they get 403."
    )
    var allowAdmin = false

    @Option(
        help:
            "The scenario the client runs, if it is one: a script file or a bundled scenario's name (kept in the cassette, so that `replay` can drive the SDK through it)."
    )
    var scenario: String?

    @Option(
        help:
            "With --scenario: the seed of the client's randomness, for `replay` (default: the script's seed, else \"\(ScenarioCommandSupport.defaultSeed)\", as `record` and `run` seed it)."
    )
    var seed: String?

    static let exchangesRange = 1...1_000_000

    func validate() throws {
        if Self.origin(upstream) == nil {
            throw ValidationError(
                "--upstream is an origin such as http://127.0.0.1:8005 (http or https, a host, no path), got \"\(upstream)\"."
            )
        }
        if redact.contains("none"), redact.count > 1 {
            throw ValidationError(
                "--redact none redacts nothing; it cannot go with \(redact.filter { $0 != "none" }.joined(separator: ", "))."
            )
        }
        if out.isEmpty { throw ValidationError("--out names the cassette file to write.") }
        var prefixes: Set<String> = []
        for text in routes {
            guard let route = Self.route(text) else {
                throw ValidationError(
                    "--route is PREFIX=ORIGIN, a path prefix such as /dta2 (no trailing /, no ? or #) and an origin such as http://127.0.0.1:8001, got \"\(text)\"."
                )
            }
            if !prefixes.insert(route.prefix).inserted {
                throw ValidationError("--route \(route.prefix) is given twice.")
            }
        }
    }

    /// A `--route` value, `PREFIX=ORIGIN`: nil unless the prefix is a path of one or more segments
    /// without a trailing `/`, `?` or `#`, and the origin one that `origin(_:)` takes.
    static func route(_ text: String) -> RecordingProxy.Route? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let prefix = String(text[..<equals]), target = String(text[text.index(after: equals)...])
        guard prefix.hasPrefix("/"), prefix.count > 1, !prefix.hasSuffix("/"),
            !prefix.contains(where: { "?#= ".contains($0) }),
            !prefix.contains("//"), let origin = origin(target)
        else { return nil }
        return RecordingProxy.Route(prefix: prefix, upstream: origin)
    }

    /// `scheme://host[:port]` of `text` (a trailing `/` dropped), nil unless http or https with a
    /// host and no path, query or fragment.
    static func origin(_ text: String) -> String? {
        let origin = text.hasSuffix("/") ? String(text.dropLast()) : text
        let parts = URLText.parts(origin)
        guard let scheme = parts.scheme, ["http", "https"].contains(scheme.lowercased()),
            let authority = parts.authority,
            !authority.isEmpty, !authority.contains(where: { "@ ".contains($0) }),
            parts.path.isEmpty, parts.query == nil, parts.fragment == nil
        else { return nil }
        return origin
    }

    /// Options given that cannot take effect: each a warning, and the proxy records without them.
    var warnings: [String] {
        guard seed != nil, scenario == nil else { return [] }
        return [
            "warning: --seed goes with --scenario (it is the seed of the scenario's run); without one it has no effect"
        ]
    }

    /// The warning for a `--host` that is not a loopback address (nil for one): what clients on
    /// other machines reach through the proxy, in the words of `ServeCommand.exposureWarning`.
    static func exposureWarning(host: String, upstream: String, out: String, allowAdmin: Bool) -> String? {
        guard !Loopback.isLoopback(host: host) else { return nil }
        let admin =
            allowAdmin
            ? "and, with --allow-admin, the operator endpoints /admin/* (mailbox with activation links and codes, revoke, restore, counts) "
                + "and /devicesecurity/admin/* of a backend on this machine"
            : "(the operator endpoints /admin/* and /devicesecurity/admin/* still answer only this machine: the proxy's Via field tells the backend)"
        return
            "warning: --host \(host) is not a loopback address: every client that reaches it is forwarded to \(upstream), can register, "
            + "authenticate and request activation codes there, and is recorded into \(out), \(admin)."
    }

    func run() async throws {
        for warning in warnings { Console.error(warning + "\n") }
        if let warning = Self.exposureWarning(host: host, upstream: upstream, out: out, allowAdmin: allowAdmin) {
            Console.error(warning + "\n")
        }
        // The file is tried before anything listens: an unwritable path is said at once.
        do {
            _ = try AtomicFile.Writer(path: out)
        } catch {
            Console.failure("--out: \(error)")
            throw ExitCode(2)
        }
        let script = try scenario.map(ScenarioCommandSupport.readScript)
        let upstream = Self.origin(self.upstream)!
        let routes = self.routes.compactMap(Self.route)
        let session = ProxySession()
        let host = self.host, port = self.port, maxExchanges = self.maxExchanges, timeout = self.timeout,
            maxBody = self.maxBody
        let via = allowAdmin ? nil : RecordingProxy.defaultVia
        let seed = script.map { ScenarioCommandSupport.seed(self.seed, script: $0) }
        let bodyDeadline = BodyDeadline(seconds: bodyTimeout) ?? .standard
        let name = ((out as NSString).lastPathComponent as NSString).deletingPathExtension
        let logger = LogLevelOption.logger("proxy", logging.level)
        let out = self.out
        await session.server.run {
            let server = try await PlainHTTPServer.start(
                host: host, port: port, logger: logger, logRequests: true, name: "proxy",
                bodyTimeout: bodyDeadline, keepsRequestTargets: true
            ) { request in
                await session.handle(request)
            }
            let header = Self.header(
                baseURL: server.baseURL, name: name, script: script, seed: seed, upstream: upstream)
            // The transport stops reading one byte past the cap, so the proxy sees the overflow
            // without holding the whole body.
            let transport = CurlTransport(
                options: .init(
                    defaultTimeout: timeout, connectTimeout: min(timeout, 10),
                    maximumResponseBody: maxBody))
            let proxy = RecordingProxy(
                upstream: upstream, routes: routes, baseURL: server.baseURL, transport: transport, header: header,
                maximumExchanges: maxExchanges, timeout: timeout, maximumBodySize: maxBody, via: via
            ) { request in
                session.actor(request)
            }
            session.begin(proxy)
            Console.line(Self.banner(proxy: proxy, out: out))
            await withTaskCancellationHandler {
                await server.wait()
            } onCancel: {
                Task { await server.stop() }
            }
        } onSignal: {
            session.signalled()
        }
        if let error = session.error {
            Console.failure("\(error)")
            throw ExitCode(2)
        }
        guard let proxy = session.proxy else { return }
        var cassette = proxy.cassette()
        if cassette.httpExchanges.contains(where: { $0.exchange.request.headers.contains("X-MIRACL-CID") }) {
            cassette.backend.flavour = BackendFlavour.mfaPlatform.rawValue
        }
        let fields = Redactor.milagroFields(for: redact, live: upstream)
        if !fields.isEmpty { cassette = Redactor(fields: fields).redact(cassette) }
        do {
            try CassetteFile.write(cassette, to: out)
        } catch {
            Console.failure(error.description)
            throw ExitCode(2)
        }
        let placeholders = cassette.redactions.map(\.placeholder)
        Console.line(
            "\(out): \(cassette.events.count) exchange\(cassette.events.count == 1 ? "" : "s") recorded"
                + (placeholders.isEmpty ? "" : "; redacted: " + placeholders.joined(separator: ", ")))
        let summary = session.summary
        Console.line(summary.text)
        if let hint = Self.routeHint(summary.unseenOrigins) { Console.line(hint) }
        if !summary.passed { throw ExitCode(1) }
    }

    /// The cassette's metadata: the backend is the proxy itself (what the client saw), with the
    /// upstream it forwarded to (where `record` can record the flow again); the scenario is the
    /// script given, else just a name (the file's). Replay compares by meaning (`json`): a proxied
    /// cassette holds HTTP exchanges only, no API results, crypto steps or random draws.
    static func header(baseURL: String, name: String, script: ScenarioScript?, seed: String?, upstream: String? = nil)
        -> Cassette
    {
        var header: Cassette
        if let script {
            header = ScenarioSession.header(
                for: script, backendURL: baseURL, embedded: false, seed: seed ?? script.seed,
                tool: ScenarioCommandSupport.tool)
        } else {
            header = Cassette(
                tool: ScenarioCommandSupport.tool, curve: "BN254CX", scenario: .init(name: name),
                backend: .init(url: baseURL, flavour: BackendFlavour.milagro.rawValue))
        }
        header.replayMode = .json
        header.backend.upstream = upstream
        return header
    }

    /// What to add to the command line so that the origins no request went to come through the proxy.
    static func routeHint(_ unseen: [FlowCheckSummary.UnseenOrigin]) -> String? {
        let missed = unseen.filter { $0.certainExchanges + $0.possibleExchanges > 0 }
        guard !missed.isEmpty else { return nil }
        let flags = missed.enumerated().map { "--route /upstream\($0.offset + 2)=\($0.element.origin)" }
        return
            "the client talked to \(missed.map(\.origin).joined(separator: ", ")) around the proxy; to record it too, add "
            + flags.joined(separator: " ")
    }

    static func banner(proxy: RecordingProxy, out: String) -> String {
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

}

/// The state shared by the request handler, the signal handlers and the command: the proxy, the
/// checker (which also prints, so that each exchange's lines stay together), the server task.
private final class ProxySession: Sendable {
    private struct State {
        var proxy: RecordingProxy?
    }

    private let state = Mutex(State())
    private let checker = Mutex(FlowChecker())

    func begin(_ proxy: RecordingProxy) { state.withLock { $0.proxy = proxy } }

    var proxy: RecordingProxy? { state.withLock { $0.proxy } }

    let server = ServerTaskControl()

    func stop() { server.stop() }

    private let signals = Mutex(0)

    /// A Ctrl-C or SIGTERM: the first stops the server once the exchanges in flight are answered;
    /// the next aborts them (`RecordingProxy.abort`) and, should the server still not have stopped
    /// 1.5 s later, releases the command's wait so that it writes what was recorded.
    func signalled() {
        let count = signals.withLock { count -> Int in
            count += 1
            return count
        }
        let pending = proxy?.pendingExchanges ?? 0
        if count == 1 {
            if pending > 0 {
                Console.line(
                    "waiting for \(pending) exchange\(pending == 1 ? "" : "s") in flight; Ctrl-C again aborts \(pending == 1 ? "it" : "them")"
                )
            }
            stop()
            return
        }
        if pending > 0 { Console.line("aborting \(pending) exchange\(pending == 1 ? "" : "s") in flight") }
        proxy?.abort()
        stop()
        let server = self.server
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { server.release() }
    }

    var error: (any Error)? { server.error }

    var summary: FlowCheckSummary { checker.withLock { $0.summary } }

    /// Who sent a request (`FlowChecker.actor`), from what it is and the settings seen so far.
    func actor(_ request: RecordingProxy.Request) -> EventActor {
        let path = URLText.path(RecordingProxy.pathAndQuery(request.target))
        return checker.withLock { $0.actor(method: request.method, path: path, body: request.body) }
    }

    func handle(_ request: PlainHTTPServer.Request) async -> PlainHTTPServer.Response {
        guard let proxy else {
            return .init(status: 503, headers: [.init("Content-Type", "text/plain")], body: Array("starting\n".utf8))
        }
        let answer = await proxy.forward(
            .init(method: request.method, target: request.target, headers: request.httpHeaders, body: request.body))
        if let (index, exchange) = answer.recorded {
            checker.withLock { checker in
                Console.line(checker.check(exchange, index: index).text)
            }
        }
        if proxy.isComplete, !server.stopRequested {
            Console.line(
                "recorded \(proxy.completedExchanges) exchange\(proxy.completedExchanges == 1 ? "" : "s") (--max-exchanges): done"
            )
            stop()
        }
        return .init(answer.response)
    }
}
