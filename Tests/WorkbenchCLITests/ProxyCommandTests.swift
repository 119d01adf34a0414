import CommonFormats
import CurlTransport
import FlowRecording
import Foundation
import MilagroRecording
import ProtocolChecks
import ProxyServing
import ReferenceBackend
import SDKSeams
import Scenarios
import Synchronization
import TestSupport
import Testing

@testable import WorkbenchCLI

/// `proxy`: the SDK runs a flow against the embedded reference backend through the proxy (its
/// listening server, libcurl upstream); the cassette is compared with what the SDK received and what
/// the backend was sent and answered, checked, replayed, served and shown; a malformed pass 1 and an
/// unreachable upstream; bad flags.
@Suite(.serialized) struct ProxyCommandTests {
    /// A proxy on a free loopback port in front of `upstream`, its transport given.
    final class RunningProxy: Sendable {
        let server: PlainHTTPServer
        let proxy: RecordingProxy

        init(
            upstream: String, routes: [RecordingProxy.Route] = [], transport: any HTTPTransport,
            script: ScenarioScript? = nil,
            seed: String? = nil, maximumBodySize: Int = RecordingProxy.defaultMaximumBodySize
        ) async throws {
            let box = ProxyBox()
            server = try await PlainHTTPServer.start(port: 0, keepsRequestTargets: true) { request in
                guard let proxy = box.proxy else { return .init(status: 503) }
                let answer = await proxy.forward(
                    .init(
                        method: request.method, target: request.target, headers: request.httpHeaders,
                        body: request.body))
                return .init(answer.response)
            }
            proxy = RecordingProxy(
                upstream: upstream, routes: routes, baseURL: server.baseURL, transport: transport,
                header: ProxySession.header(
                    baseURL: server.baseURL, name: "proxied", script: script, seed: seed,
                    tool: ScenarioCommandSupport.tool),
                timeout: 30, maximumBodySize: maximumBodySize
            ) { request in
                FlowChecker().actor(method: request.method, path: URLText.path(request.target), body: request.body)
            }
            box.set(proxy)
        }
    }

    final class ProxyBox: Sendable {
        private let stored = Mutex<RecordingProxy?>(nil)
        var proxy: RecordingProxy? { stored.withLock { $0 } }
        func set(_ proxy: RecordingProxy) { stored.withLock { $0 = proxy } }
    }

    static let seed = "proxy-test"

    static func curl() -> CurlTransport { CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 10)) }

    /// The access-number flow (two actors, a held login) through the proxy: every exchange in the
    /// cassette is byte-identical to what the SDK (and the browser) received and to what the backend
    /// was sent; the checks pass; the cassette replays, serves and shows.
    @Test func theSDKThroughTheProxy() async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/access-number-logout.yaml")
        let embedded = try await EmbeddedSession.start(script, seed: Self.seed)
        let backend = embedded.backend, clock = embedded.clock
        // Upstream through the embedded backend's own transport, as `record` talks to it: under its
        // stable origin, the Date fields from the frozen clock the time permits are dated by.
        let origin = WorkbenchVersion.embeddedBackendOrigin
        let upstreamView = Recorder(
            header: ProxySession.header(
                baseURL: origin, name: "upstream", script: nil, seed: nil, tool: ScenarioCommandSupport.tool))
        let running = try await RunningProxy(
            upstream: origin, transport: upstreamView.transport(wrapping: embedded.transport),
            script: script, seed: Self.seed)
        let sdkHeader = ScenarioSession.header(
            for: script, backendURL: running.server.baseURL, embedded: false, seed: Self.seed,
            tool: WorkbenchVersion.tool)
        let sdkView: Cassette
        do {
            sdkView = try await ScenarioSession.record(
                script, header: sdkHeader, transport: Self.curl(), random: SeededRandomSource(seed: Self.seed),
                clock: clock, advanceClock: { clock.advance(milliseconds: $0) }, canWait: true,
                recordsTimings: false, heldRequests: { backend.heldLogins })
        } catch {
            await running.server.stop()
            await embedded.stop()
            throw error
        }
        await running.server.stop()
        await embedded.stop()
        let proxied = running.proxy.cassette()

        // What the client side received.
        let client = sdkView.httpExchanges.map(\.exchange), recorded = proxied.httpExchanges.map(\.exchange)
        #expect(
            recorded.count == client.count && recorded.count == proxied.events.count && recorded.count >= 15,
            "\(recorded.count)")
        for (number, (mine, theirs)) in zip(recorded, client).enumerated() {
            #expect(mine.request == theirs.request, "exchange \(number): request")
            #expect(
                mine.response?.status == theirs.response?.status && mine.response?.body == theirs.response?.body,
                "exchange \(number)")
            let withoutDate = { (headers: HTTPHeaders?) in headers?.fields.filter { $0.name.lowercased() != "date" } }
            #expect(
                withoutDate(mine.response?.headers) == withoutDate(theirs.response?.headers),
                "exchange \(number): headers")
        }
        #expect(proxied.events.contains { $0.actor == .browser } && proxied.events.contains { $0.actor == .sdk })

        // What the backend was sent and answered (the origin aside: nothing in these answers names it).
        let upstream = upstreamView.cassette().httpExchanges.map(\.exchange)
        #expect(upstream.count == recorded.count)
        for (number, (mine, theirs)) in zip(recorded, upstream).enumerated() {
            #expect(
                theirs.request.url == origin + mine.request.url.dropFirst(running.server.baseURL.count),
                "exchange \(number)")
            // What the client sent, and the proxy's Via last.
            #expect(
                mine.request.method == theirs.request.method
                    && mine.request.headers.fields + [.init(name: "Via", value: RecordingProxy.defaultVia)]
                        == theirs.request.headers.fields
                    && mine.request.body == theirs.request.body, "exchange \(number): request")
            #expect(mine.response == theirs.response, "exchange \(number): response")
            #expect(mine.timings != nil && mine.timings == theirs.timings, "exchange \(number): timings")
        }

        // The checks pass, access numbers included.
        var checker = FlowChecker()
        for (index, exchange) in proxied.httpExchanges { checker.check(exchange, index: index) }
        #expect(checker.summary.passed && checker.summary.counts(.accessNumber).passed == 2, "\(checker.summary.text)")

        // It replays (the script and seed are in it) ...
        let directory = try TemporaryDirectory.make("proxy")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/proxied.json"
        try CassetteFile.write(proxied, to: file)
        let replayed = await ScenarioSession.replay(file: file)
        #expect(replayed.passed, "\(replayed)")
        // ... is shown and linted like any other ...
        let shown = try WorkbenchProcess.run(["cassette", "show", file])
        #expect(
            shown.status == 0 && shown.stdout.contains("\(recorded.count) events: \(recorded.count) http"), "\(shown)")
        let linted = try WorkbenchProcess.run(["cassette", "lint", file])
        #expect(linted.status == 0 && linted.stdout.contains("ok"), "\(linted)")
        // ... and served: the recorded settings come back from the server.
        let serving = try ServingProcess(["cassette", "serve", file, "--port", "0"])
        let port = serving.waitForOutput(within: 120) { line -> Int? in
            guard line.hasPrefix("serving cassette "), let origin = line.range(of: "http://127.0.0.1:") else {
                return nil
            }
            return Int(line[origin.upperBound...])
        }
        let settings = try port.map { try ServingProcess.get(port: $0, "/rps/clientSettings") }
        let run = serving.interrupt()
        let recordedSettings = String(decoding: recorded[0].response?.body ?? [], as: UTF8.self)
        #expect(
            settings?.hasPrefix("HTTP/1.1 200") == true && settings?.hasSuffix(recordedSettings) == true,
            "\(settings ?? "no port"); \(run)")
        #expect(run.stdout.contains("served 1 of \(recorded.count) recorded exchanges"), "\(run)")
    }

    /// A pass 1 whose U is not on the curve goes through to the backend, and the checks flag it: a
    /// note, since the backend refuses it (400).
    @Test func aMalformedPass1IsFlagged() async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: Self.seed))
        let running = try await RunningProxy(upstream: backend.baseURL, transport: Self.curl())
        let x = String(repeating: "1", count: 64), y = String(repeating: "2", count: 64)
        let body = #"{"pass":1,"mpin_id":"7b7d","UT":"","U":"04\#(x)\#(y)"}"#
        let sent: HTTPResponse
        do {
            _ = try await Self.curl().send(
                HTTPRequest(method: .get, url: running.server.baseURL + "/rps/clientSettings"))
            sent = try await Self.curl().send(
                HTTPRequest(
                    method: .post, url: running.server.baseURL + "/rps/pass1",
                    headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        } catch {
            await running.server.stop()
            await backend.stop()
            throw error
        }
        await running.server.stop()
        await backend.stop()
        let cassette = running.proxy.cassette()
        #expect(cassette.events.count == 2)
        let pass1 = try #require(cassette.httpExchanges.last?.exchange)
        #expect(
            pass1.request.body == Array(body.utf8) && pass1.response?.status == sent.status
                && pass1.response?.body == sent.body)
        var checker = FlowChecker()
        for (index, exchange) in cassette.httpExchanges { checker.check(exchange, index: index) }
        let summary = checker.summary
        #expect(sent.status == 400 && summary.passed && summary.count(.warning) == 0, "\(summary.text)")
        #expect(
            summary.text.contains("note [1] POST /rps/pass1 (sdk): status 400 → HTTP_REQUEST_ERROR"), "\(summary.text)")
        #expect(
            summary.text.contains("note [1] POST /rps/pass1 (sdk): U: point not on the curve (point-off-curve)"),
            "\(summary.text)")
    }

    /// A closed loopback port upstream: a recorded transport error and a 502, at once.
    @Test func anUnreachableUpstreamIsA502AndARecordedTransportError() async throws {
        let running = try await RunningProxy(upstream: "http://127.0.0.1:1", transport: Self.curl())
        let response: HTTPResponse
        do {
            response = try await Self.curl().send(
                HTTPRequest(method: .get, url: running.server.baseURL + "/rps/clientSettings", timeout: 30))
        } catch {
            await running.server.stop()
            throw error
        }
        await running.server.stop()
        #expect(response.status == 502)
        let exchange = try #require(running.proxy.cassette().httpExchanges.first?.exchange)
        #expect(exchange.response == nil && exchange.error?.kind == "connectionRefused", "\(exchange)")
        #expect(String(decoding: response.body, as: UTF8.self).contains("connectionRefused"))
    }

    @Test(
        "bad flags are usage errors with status 2",
        arguments: [
            (
                ["proxy", "--upstream", "http://127.0.0.1:8005", "--out", "x.json", "--port", "70000"],
                "'--port <port>': must be an integer from 0 to 65535"
            ),
            (
                ["proxy", "--upstream", "ftp://127.0.0.1:8005", "--out", "x.json"],
                "--upstream is an origin such as http://127.0.0.1:8005"
            ),
            (
                ["proxy", "--upstream", "http://127.0.0.1:8005/rps", "--out", "x.json"],
                "(http or https, a host, no path), got \"http://127.0.0.1:8005/rps\""
            ),
            (["proxy", "--upstream", "http://127.0.0.1:8005", "--out", "/nonexistent-folder/x.json"], "--out: "),
            (["proxy", "--upstream", "http://127.0.0.1:8005"], "Missing expected argument '--out <out>'"),
            (
                ["proxy", "--upstream", "http://127.0.0.1:8005", "--out", "x.json", "--max-exchanges", "0"],
                "'--max-exchanges <max-exchanges>'"
            ),
            (
                ["proxy", "--upstream", "http://127.0.0.1:8005", "--out", "x.json", "--log-level", "loud"],
                "must be one of trace, debug"
            ),
            (
                [
                    "proxy", "--upstream", "http://127.0.0.1:8005", "--out", "x.json", "--route",
                    "dta2=http://127.0.0.1:8001",
                ], "--route is PREFIX=ORIGIN"
            ),
            (
                [
                    "proxy", "--upstream", "http://127.0.0.1:8005", "--out", "x.json", "--route",
                    "/dta2/=http://127.0.0.1:8001",
                ], "got \"/dta2/=http"
            ),
            (
                [
                    "proxy", "--upstream", "http://127.0.0.1:8005", "--out", "x.json", "--route",
                    "/d=http://127.0.0.1:1", "--route", "/d=http://127.0.0.1:2",
                ],
                "--route /d is given twice"
            ),
        ])
    func badFlags(arguments: [String], message: String) throws {
        let result = try WorkbenchProcess.run(arguments, seconds: 60)
        #expect(result.exited && result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stdout.contains("listening"), "\(result.stdout)")
    }

    /// A loopback upstream that keeps each request target it gets and answers `answer(target)`; a
    /// target ending in `/hold` is held until `release()` (at most 60 s).
    final class TargetUpstream: Sendable {
        final class Seen: Sendable {
            let targets = Mutex<[String]>([])
            let released = Mutex(false)
        }
        let seen = Seen()
        let server: PlainHTTPServer
        var targets: [String] { seen.targets.withLock { $0 } }

        init(
            _ answer: @escaping @Sendable (String) -> PlainHTTPServer.Response = { _ in
                .init(status: 200, body: Array("ok".utf8))
            }
        ) async throws {
            let seen = self.seen
            server = try await PlainHTTPServer.start(port: 0) { request in
                seen.targets.withLock { $0.append(request.target) }
                if request.target.hasSuffix("/hold") {
                    for _ in 0..<1_200 where !seen.released.withLock({ $0 }) {
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                }
                return answer(request.target)
            }
        }

        func release() { seen.released.withLock { $0 = true } }
    }

    /// `body` on a thread of its own: the blocking socket and process calls of these tests must not
    /// hold the threads the in-process proxy and upstream answer on.
    static func offPool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// The path and query go upstream exactly as the client sent them: `..` and `.` segments and
    /// encoded slashes are not folded (libcurl folds them unless told not to).
    @Test func thePathIsForwardedAsReceived() async throws {
        let upstream = try await TargetUpstream()
        let running = try await RunningProxy(upstream: upstream.server.baseURL, transport: Self.curl())
        let targets = ["/x/../../../y", "/a/./b/%2e%2e/c?q=/../z", "/rps//user"]
        var answers: [String] = []
        let port = running.server.port
        for target in targets {
            answers.append(try await Self.offPool { try ServingProcess.get(port: port, target, seconds: 30) })
        }
        await running.server.stop()
        await upstream.server.stop()
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200") }, "\(answers)")
        #expect(upstream.targets == targets)
        #expect(
            running.proxy.cassette().httpExchanges.map {
                String($0.exchange.request.url.dropFirst(running.server.baseURL.count))
            } == targets)
    }

    /// `CONNECT` gets a 405 that says why in a body with its length, and in `Proxy-Status`, and the
    /// connection is closed; an absolute-form target gets a 400 with a body and its length. No hang;
    /// nothing is forwarded or recorded.
    @Test(arguments: [
        ("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n", "405"),
        ("GET http://127.0.0.1:1/rps/clientSettings HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n", "400"),
    ])
    func connectAndAbsoluteFormAreRefusedWithABody(request: String, status: String) async throws {
        let upstream = try await TargetUpstream()
        let running = try await RunningProxy(upstream: upstream.server.baseURL, transport: Self.curl())
        let started = ContinuousClock.now
        let port = running.server.port
        let answer: Result<String, any Error>
        do {
            answer = .success(try await Self.offPool { try ServingProcess.exchange(port: port, request, seconds: 60) })
        } catch { answer = .failure(error) }
        let elapsed = ContinuousClock.now - started
        await running.server.stop()
        await upstream.server.stop()
        let text = try answer.get()
        if status == "405" {
            #expect(
                text.hasPrefix("HTTP/1.1 405")
                    && text.contains(
                        "Proxy-Status: mpin-workbench; error=http_request_denied; details=\"the proxy is not a tunnel")
                    && text.contains("Allow: GET, POST"), "\(text)")
        } else {
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text)")
        }
        #expect(text.contains("Content-Length: ") && text.contains(#"{"error":"#), "\(text)")
        // Answered, not tunnelled: a tunnel would hold the connection to the exchange's own limit.
        // Bounded at a minute, far from any answer's time on a busy machine.
        #expect(elapsed < .seconds(60), "\(elapsed)")
        #expect(upstream.targets.isEmpty && running.proxy.cassette().events.isEmpty)
    }

    /// An upstream body over the cap: libcurl stops reading it, the client gets a 502 and the
    /// cassette the same transport error; the cassette reads back.
    @Test func anUpstreamBodyOverTheCapIsA502() async throws {
        let big = [UInt8](repeating: 0x61, count: 3 << 20)
        let upstream = try await TargetUpstream { _ in .init(status: 200, body: big) }
        let cap = 1 << 20
        let transport = CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 10, maximumResponseBody: cap))
        let running = try await RunningProxy(
            upstream: upstream.server.baseURL, transport: transport, maximumBodySize: cap)
        let port = running.server.port
        let answer = try await Self.offPool { try ServingProcess.get(port: port, "/big", seconds: 30) }
        await running.server.stop()
        await upstream.server.stop()
        #expect(answer.hasPrefix("HTTP/1.1 502"), "\(answer.prefix(300))")
        let cassette = try CassetteFile.decode(running.proxy.cassette().canonicalBytes)
        let exchange = try #require(cassette.httpExchanges.first?.exchange)
        #expect(
            exchange.error?.message == "the response body is more than \(cap) bytes, the most this transport takes",
            "\(exchange)")
        #expect(
            answer.hasSuffix(
                String(
                    decoding: CassettePlayback(cassette: cassette, name: "p").answer(method: "GET", target: "/big")
                        .body,
                    as: UTF8.self)))
    }

    /// The executable with an exchange held upstream and a --timeout of an hour: Ctrl-C waits for
    /// it, a SIGTERM after that aborts it, and the cassette (the exchange a cancelled transport
    /// error) is written within 2 s.
    @Test func aSecondSignalAbortsTheExchangesInFlight() async throws {
        let upstream = try await TargetUpstream()
        let directory = try TemporaryDirectory.make("proxy-abort")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serving = try ServingProcess([
            "proxy", "--upstream", upstream.server.baseURL, "--out", directory + "/held.json", "--timeout", "3600",
        ])
        let port = try await Self.offPool {
            serving.waitForOutput(within: 120) { line -> Int? in
                guard line.hasPrefix("proxy listening on "), let origin = line.range(of: "http://127.0.0.1:") else {
                    return nil
                }
                return Int(line[origin.upperBound...].prefix { $0.isNumber })
            }
        }
        let client = Task {
            try await Self.offPool { try port.map { try ServingProcess.get(port: $0, "/rps/hold", seconds: 30) } }
        }
        for _ in 0..<600 where upstream.targets.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        serving.signal(SIGINT)
        let waiting = try await Self.offPool {
            serving.waitForOutput(within: 60) { $0.hasPrefix("waiting for 1 exchange in flight") ? true : nil }
        }
        let (run, elapsed) = try await Self.offPool {
            let started = ContinuousClock.now
            serving.signal(SIGTERM)
            // The upstream holds its answer until it is released below: a proxy that exits at all
            // aborted the exchange in flight. A minute, far from the 1.5 s it allows itself.
            let run = serving.finish(waiting: 60)
            return (run, ContinuousClock.now - started)
        }
        upstream.release()
        let answer = try await client.value
        await upstream.server.stop()
        #expect(waiting == true && run.exited && run.status != 2, "\(run)")
        #expect(elapsed < .seconds(60), "\(elapsed); \(run)")
        #expect(answer?.hasPrefix("HTTP/1.1 502") == true, "\(answer ?? "no port")")
        let cassette = try CassetteFile.read(directory + "/held.json")
        let exchange = try #require(cassette.httpExchanges.first?.exchange)
        #expect(
            exchange.error
                == .init(kind: "cancelled", message: "the proxy was stopped while the exchange was in flight"),
            "\(exchange)")
    }

    /// A client whose body stalls (1 byte of a promised 1,000) is answered 408 after --body-timeout
    /// and its connection closed; nothing goes upstream and nothing is recorded.
    @Test func aStalledRequestBodyIs408AndNotForwarded() async throws {
        let upstream = try await TargetUpstream()
        let directory = try TemporaryDirectory.make("proxy-stall")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serving = try ServingProcess([
            "proxy", "--upstream", upstream.server.baseURL, "--out", directory + "/stall.json",
            "--body-timeout", "1",
        ])
        let port = try await Self.offPool {
            serving.waitForOutput(within: 120) { line -> Int? in
                guard line.hasPrefix("proxy listening on "), let origin = line.range(of: "http://127.0.0.1:") else {
                    return nil
                }
                return Int(line[origin.upperBound...].prefix { $0.isNumber })
            }
        }
        let request =
            "POST /rps/user HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        let started = ContinuousClock.now
        let answer = try await Self.offPool {
            try port.map { try ServingProcess.exchange(port: $0, request, seconds: 20) }
        }
        let waited = ContinuousClock.now - started
        serving.signal(SIGINT)
        let run = try await Self.offPool { serving.finish(waiting: 20) }
        await upstream.server.stop()
        #expect(answer?.hasPrefix("HTTP/1.1 408") == true, "\(answer ?? "no port")")
        #expect(upstream.targets.isEmpty, "\(upstream.targets)")
        // The flag's 1 s, not the default 10 s: the answer says how long it waited; the wall-clock
        // bound is a minute, which only a hang misses.
        #expect(answer?.contains("did not arrive within 1.0 s") == true, "\(answer ?? "no port")")
        #expect(waited < .seconds(60), "\(waited)")
        #expect(run.exited, "\(run)")
        #expect((try? CassetteFile.read(directory + "/stall.json"))?.httpExchanges.isEmpty ?? true)
    }

    /// The executable end to end: --max-exchanges stops it, the cassette is written and the summary printed.
    @Test func theExecutableStopsAfterItsExchanges() async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: Self.seed))
        let directory = try TemporaryDirectory.make("proxy-cli")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serving = try ServingProcess([
            "proxy", "--upstream", backend.baseURL, "--out", directory + "/one.json", "--max-exchanges", "1",
        ])
        let port = serving.waitForOutput(within: 120) { line -> Int? in
            guard line.hasPrefix("proxy listening on "), let origin = line.range(of: "http://127.0.0.1:") else {
                return nil
            }
            return Int(line[origin.upperBound...].prefix { $0.isNumber })
        }
        let response = try port.map { try ServingProcess.get(port: $0, "/rps/clientSettings") }
        // It stops by itself after the one exchange: the summary comes without an interrupt.
        let finished = serving.waitForOutput(within: 60) { $0.hasPrefix("M-Pin checks over") ? true : nil }
        let run = serving.interrupt(waiting: 30)
        #expect(finished == true && run.exited && run.status == 0 && !run.stdout.contains("\nstopping"), "\(run)")
        await backend.stop()
        #expect(response?.hasPrefix("HTTP/1.1 200") == true, "\(run)")
        #expect(run.stdout.contains("[0] GET /rps/clientSettings 200 client settings (sdk): ok"), "\(run)")
        #expect(
            run.stdout.contains("one.json: 1 exchange recorded")
                && run.stdout.contains("M-Pin checks over 1 exchange: "), "\(run)")
        #expect(run.stderr.contains("GET /rps/clientSettings 200 "), "one log line: \(run.stderr)")
        let cassette = try CassetteFile.read(directory + "/one.json")
        #expect(cassette.events.count == 1 && cassette.backend.url == "http://127.0.0.1:\(port ?? 0)")
    }
}

/// A client whose settings name D-TA 2 on its own origin: the reference backend behind a front that
/// serves its `/dta2/…` on another loopback origin and says so in the client settings (as the
/// open-source server does, docs/protocol.md §13), the SDK through the proxy. With `--route` the D-TA's
/// exchanges are recorded too; without, the summary names the origin and the exchanges it lacks.
@Suite(.serialized) struct ProxyRouteTests {
    /// A loopback server that sends each request to `target(path)` through libcurl and answers
    /// what came back, its body passed through `edit`.
    static func forwarder(
        _ target: @escaping @Sendable (String) -> String,
        edit: @escaping @Sendable (String, [UInt8]) -> [UInt8] = { $1 }
    ) async throws -> PlainHTTPServer {
        try await PlainHTTPServer.start(port: 0) { request in
            guard let method = HTTPMethod(rawValue: request.method) else { return .init(status: 405) }
            var headers = request.httpHeaders
            for name in ["host", "content-length", "expect"] { headers.remove(name: name) }
            do {
                let response = try await ProxyCommandTests.curl().send(
                    HTTPRequest(
                        method: method, url: target(request.target), headers: headers,
                        body: request.body, timeout: 30))
                var answer = response
                for name in ["content-length", "transfer-encoding", "connection"] { answer.headers.remove(name: name) }
                answer.body = edit(request.target, response.body)
                return .init(answer)
            } catch {
                return .init(status: 502)
            }
        }
    }

    /// The SDK's `authenticate` scenario against `backendURL`.
    static func runSDK(_ backendURL: String) async throws -> Cassette {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let header = ScenarioSession.header(
            for: script, backendURL: backendURL, embedded: false, seed: ProxyCommandTests.seed,
            tool: WorkbenchVersion.tool)
        return try await ScenarioSession.record(
            script, header: header, transport: ProxyCommandTests.curl(),
            random: SeededRandomSource(seed: ProxyCommandTests.seed), clock: SystemClock(), canWait: true,
            recordsTimings: false)
    }

    @Test(arguments: [true, false])
    func dta2OnItsOwnOrigin(routed: Bool) async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: ProxyCommandTests.seed))
        let base = backend.baseURL
        let dta = try await Self.forwarder { base + "/dta2" + $0 }
        let dtaOrigin = dta.baseURL
        let front = try await Self.forwarder({ base + $0 }) { target, body in
            guard target.hasSuffix("/clientSettings") else { return body }
            return Array(
                String(decoding: body, as: UTF8.self).replacing(
                    #""certivoxURL":"/dta2/""#, with: #""certivoxURL":"\#(dtaOrigin)/""#
                ).utf8)
        }
        let routes = routed ? [RecordingProxy.Route(prefix: "/dta", upstream: dtaOrigin)] : []
        let running = try await ProxyCommandTests.RunningProxy(
            upstream: front.baseURL, routes: routes, transport: ProxyCommandTests.curl())
        let sdkView: Result<Cassette, any Error>
        do { sdkView = .success(try await Self.runSDK(running.server.baseURL)) } catch { sdkView = .failure(error) }
        for server in [running.server, front, dta] { await server.stop() }
        await backend.stop()
        let client = try sdkView.get()
        let proxied = running.proxy.cassette()
        let summary = FlowChecker.summary(of: proxied)
        let dtaRequests = client.httpExchanges.filter {
            URLText.path($0.exchange.request.url).hasSuffix("/clientSecret")
                || URLText.path($0.exchange.request.url).hasSuffix("/timePermit")
        }
        // Share 2 once; time permit share 2 once (the next two logins of the day take it from the SDK's cache).
        #expect(dtaRequests.count == 2, "\(client.httpExchanges.map(\.exchange.request.url))")
        #expect(dtaRequests.allSatisfy { $0.exchange.response?.status == 200 })
        if routed {
            // Every exchange of the client went through the proxy, the D-TA's under /dta.
            #expect(
                proxied.httpExchanges.count == client.httpExchanges.count,
                "\(proxied.httpExchanges.count) of \(client.httpExchanges.count)")
            #expect(dtaRequests.allSatisfy { $0.exchange.request.url.hasPrefix(running.server.baseURL + "/dta/") })
            #expect(summary.passed && summary.raised.isEmpty && summary.unseenOrigins.isEmpty, "\(summary.text)")
            #expect(
                summary.reports.count { $0.kind == .clientSecret2 || $0.kind == .timePermit2 } == 2, "\(summary.text)")
        } else {
            // The client went to the D-TA directly: 2 exchanges the cassette lacks, and the summary says so.
            #expect(proxied.httpExchanges.count == client.httpExchanges.count - 2)
            #expect(dtaRequests.allSatisfy { $0.exchange.request.url.hasPrefix(dtaOrigin + "/") })
            #expect(
                summary.unseenOrigins == [
                    .init(
                        origin: dtaOrigin, settings: ["certivoxURL"], settingsIndex: 0, certainExchanges: 1,
                        possibleExchanges: 3)
                ], "\(summary.text)")
            #expect(
                summary.text.contains(
                    "warning [0] client settings: \(dtaOrigin) (certivoxURL): no exchange with it was seen; missing: 1 exchange the client made with it (and up to 3 more for time permits)"
                ),
                "\(summary.text)")
            #expect(
                ProxySession.routeHint(summary.unseenOrigins)
                    == "the client talked to \(dtaOrigin) around the proxy; to record it too, add --route /upstream2=\(dtaOrigin)"
            )
        }
    }
}
