import Foundation
import SDKSeams
import Synchronization
import Testing

@testable import FlowRecording

/// The recording proxy's core over a scripted upstream: what goes upstream, what the client gets,
/// what the cassette holds, transport errors, the exchange limit.
@Suite struct RecordingProxyTests {
    static let upstream = "http://127.0.0.1:9001"
    static let proxyURL = "http://127.0.0.1:7001"

    /// An upstream that keeps every request and answers with `answer`.
    final class ScriptedUpstream: HTTPTransport {
        let received = Mutex<[HTTPRequest]>([])
        let answer: @Sendable (HTTPRequest) throws(TransportError) -> HTTPResponse

        init(_ answer: @escaping @Sendable (HTTPRequest) throws(TransportError) -> HTTPResponse) {
            self.answer = answer
        }

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            received.withLock { $0.append(request) }
            return try answer(request)
        }
    }

    static func header() -> Cassette {
        Cassette(
            tool: .init(name: "t", version: "1"), curve: "BN254CX", scenario: .init(name: "proxy"),
            backend: .init(url: proxyURL, flavour: "milagro"))
    }

    @Test func forwardsByteForByteAndRecordsWhatTheClientSaw() async throws {
        let settings = #"{"certivoxURL":"http://127.0.0.1:9001/dta2/","registerURL":"/rps/user"}"#
        let upstream = ScriptedUpstream { _ in
            HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": "application/json", "Content-Length": "61", "Connection": "keep-alive",
                    "Location": "http://127.0.0.1:9001/next",
                ],
                body: Array(settings.utf8),
                timings: HTTPTimings(dns: 0, connect: 0.001, tls: 0, requestSent: 0.001, firstByte: 0.002, total: 0.003)
            )
        }
        let proxy = RecordingProxy(
            upstream: Self.upstream + "/", baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        let body: [UInt8] = Array("{\n\t\"pass\" : 1\n}".utf8) + [0xFF]
        let request = RecordingProxy.Request(
            method: "POST", target: "/rps/pass1?a=%2F&b",
            headers: HTTPHeaders([
                .init(name: "Host", value: "127.0.0.1:7001"), .init(name: "X-Custom", value: "1"),
                .init(name: "Content-Length", value: "\(body.count)"), .init(name: "Connection", value: "close, X-Hop"),
                .init(name: "X-Hop", value: "h"), .init(name: "Content-Type", value: "application/json"),
                .init(name: "Expect", value: "100-continue"),
            ]),
            body: body)
        let answer = await proxy.forward(request)

        let sent = try #require(upstream.received.withLock { $0 }.first)
        #expect(sent.method == .post && sent.url == Self.upstream + "/rps/pass1?a=%2F&b" && sent.body == body)
        #expect(sent.headers.fields.map(\.name) == ["X-Custom", "Content-Type", "Via"], "\(sent.headers)")
        #expect(sent.headers.values(for: "Via") == [RecordingProxy.defaultVia])

        let rewritten = Array(settings.replacing(Self.upstream, with: Self.proxyURL).utf8)
        #expect(answer.status == 200 && answer.body == rewritten)
        #expect(
            answer.headers.fields == [
                .init(name: "Content-Type", value: "application/json"),
                .init(name: "Content-Length", value: "\(rewritten.count)"),
                .init(name: "Location", value: Self.proxyURL + "/next"),
            ])

        let cassette = proxy.cassette()
        #expect(cassette.events.count == 1 && proxy.completedExchanges == 1)
        let exchange = try #require(cassette.httpExchanges.first?.exchange)
        #expect(exchange.request.url == Self.proxyURL + "/rps/pass1?a=%2F&b")
        // What the client sent: the proxy's Via is not recorded.
        #expect(exchange.request.body == body && exchange.request.headers.fields == sent.headers.fields.dropLast())
        #expect(exchange.response == .init(status: 200, headers: answer.headers, body: rewritten))
        #expect(exchange.timings?.total == 0.003)
        #expect(answer.recorded?.index == 0 && answer.recorded?.exchange == exchange)
    }

    /// The proxy marks what it forwards with its `Via` (after the client's fields: a client naming
    /// `Via` in `Connection` drops only its own), so that a backend on its machine does not take
    /// the proxy's clients for local ones; without `via` (`proxy --allow-admin`) it adds none.
    /// Before, nothing told the backend a request had come through the proxy.
    @Test func forwardedRequestsCarryTheProxysVia() async throws {
        let upstream = ScriptedUpstream { _ in HTTPResponse(status: 200, headers: [:], body: []) }
        let marked = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        _ = await marked.forward(
            .init(
                method: "POST", target: "/admin/revoke",
                headers: HTTPHeaders([.init(name: "Connection", value: "Via"), .init(name: "Via", value: "1.0 mine")]),
                body: []))
        let unmarked = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header(), via: nil)
        _ = await unmarked.forward(.init(method: "POST", target: "/admin/revoke", headers: [:], body: []))
        let sent = upstream.received.withLock { $0 }
        #expect(sent.count == 2)
        #expect(
            sent.first?.headers.values(for: "Via") == [RecordingProxy.defaultVia],
            "\(String(describing: sent.first?.headers))")
        #expect(sent.last?.headers.values(for: "Via") == [], "\(String(describing: sent.last?.headers))")
    }

    @Test func aTransportErrorIsRecordedAndAnswered502AsServeWould() async throws {
        let upstream = ScriptedUpstream { request throws(TransportError) in
            throw TransportError(kind: .connectionRefused, message: "Failed to connect", url: request.url, code: 7)
        }
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        let answer = await proxy.forward(.init(method: "GET", target: "/rps/clientSettings", headers: [:], body: []))
        #expect(answer.status == 502)
        let exchange = try #require(proxy.cassette().httpExchanges.first?.exchange)
        #expect(
            exchange.response == nil
                && exchange.error == .init(kind: "connectionRefused", message: "Failed to connect", code: 7))
        let served = CassettePlayback(cassette: proxy.cassette(), name: "p").answer(
            method: "GET", target: "/rps/clientSettings")
        #expect(served.status == 502 && served.body == answer.body)
    }

    @Test func aMethodTheTransportCannotSendIsATransportError() async throws {
        let upstream = ScriptedUpstream { _ in HTTPResponse(status: 200) }
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        let answer = await proxy.forward(.init(method: "PROPFIND", target: "/x", headers: [:], body: []))
        #expect(answer.status == 502 && upstream.received.withLock { $0.isEmpty })
        #expect(proxy.cassette().httpExchanges.first?.exchange.error?.kind == "invalidRequest")
    }

    @Test func stopsRecordingAtTheLimit() async throws {
        let upstream = ScriptedUpstream { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header(),
            maximumExchanges: 2)
        var statuses: [Int] = []
        for number in 0..<3 {
            #expect(proxy.isComplete == (number >= 2))
            statuses.append(
                await proxy.forward(.init(method: "GET", target: "/\(number)", headers: [:], body: [])).status)
        }
        #expect(statuses == [200, 200, 503])
        #expect(proxy.cassette().events.count == 2 && upstream.received.withLock { $0.count } == 2 && proxy.isComplete)
    }

    /// An upstream answer the cassette reader would refuse (too many header fields, a field name
    /// that is not a token) is recorded as a transport error, and the client gets that error's 502:
    /// the cassette reads back, and serving it answers what the client got.
    @Test(arguments: [
        (0..<10_000).map { HTTPHeaders.Field(name: "X-N\($0)", value: "v") },
        [HTTPHeaders.Field(name: "X Bad Name", value: "v")],
        [HTTPHeaders.Field(name: "X-Split", value: "a\u{0}b")],
    ])
    func anAnswerTheReaderWouldRefuseIsRecordedAsATransportError(fields: [HTTPHeaders.Field]) async throws {
        let upstream = ScriptedUpstream { _ in
            HTTPResponse(status: 200, headers: HTTPHeaders(fields), body: Array("ok".utf8))
        }
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        let answer = await proxy.forward(.init(method: "GET", target: "/rps/clientSettings", headers: [:], body: []))
        #expect(answer.status == 502)
        let written = proxy.cassette()
        let read = try CassetteFile.decode(written.canonicalBytes)
        let exchange = try #require(read.httpExchanges.first?.exchange)
        #expect(exchange.response == nil && exchange.error?.kind == "other", "\(exchange)")
        #expect(exchange.error?.message.hasPrefix("the upstream's answer cannot be recorded: ") == true, "\(exchange)")
        #expect(answer.recorded?.exchange == exchange)
        let served = CassettePlayback(cassette: read, name: "p").answer(method: "GET", target: "/rps/clientSettings")
        #expect(served.status == answer.status && served.body == answer.body)
    }

    /// A body over the proxy's cap is a recorded transport error and a 502, whatever the transport
    /// delivered; one at the cap goes through.
    @Test func anUpstreamBodyOverTheCapIs502() async throws {
        let upstream = ScriptedUpstream { request in
            HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: request.url.hasSuffix("/big") ? 101 : 100))
        }
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header(),
            maximumBodySize: 100)
        let fits = await proxy.forward(.init(method: "GET", target: "/fits", headers: [:], body: []))
        let big = await proxy.forward(.init(method: "GET", target: "/big", headers: [:], body: []))
        #expect(fits.status == 200 && fits.body.count == 100)
        #expect(big.status == 502)
        let exchange = try #require(proxy.cassette().httpExchanges.last?.exchange)
        #expect(
            exchange.response == nil && exchange.error?.message.contains("more than 100 bytes") == true, "\(exchange)")
    }

    /// Past the cassette's budget of bytes (its events as the file writes them), an answer is a
    /// recorded error too, and once the budget is spent requests get 503 and are not recorded.
    @Test func exchangesOverTheCassettesBudgetAre502Then503() async throws {
        let upstream = ScriptedUpstream { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: 600)) }
        let request = RecordingProxy.Request(method: "POST", target: "/x", headers: [:], body: [1])
        let measuring = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        _ = await measuring.forward(request)
        let one = measuring.cassette().canonicalBytes.count - Self.header().canonicalBytes.count
        let budget = 2 * one + 10  // room for two answers; the error event of the third spends the rest
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header(),
            maximumRecordedBytes: budget)
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(await proxy.forward(request).status) }
        #expect(statuses == [200, 200, 502, 503], "one event: \(one) bytes")
        let cassette = try CassetteFile.decode(proxy.cassette().canonicalBytes)
        #expect(cassette.events.count == 3)
        #expect(cassette.httpExchanges.last?.exchange.error?.message.contains("past \(budget) bytes of events") == true)
    }

    /// `abort()` ends the exchanges in flight: each is cancelled (the upstream's send ends by its
    /// cancellation, not by its 60 s answer; no clock is read, so a busy machine cannot fail it),
    /// recorded as a cancelled transport error and answered 502; a request after it is not sent
    /// upstream.
    @Test func abortEndsTheExchangesInFlight() async throws {
        let slow = SlowUpstream()
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: slow, header: Self.header())
        let pending = Task { await proxy.forward(.init(method: "GET", target: "/slow", headers: [:], body: [])) }
        for _ in 0..<2_000 where slow.started.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        proxy.abort()
        let answer = await pending.value
        #expect(slow.cancelled.withLock { $0 } == 1, "the send in flight was not cancelled")
        #expect(answer.status == 502)
        let exchange = try #require(proxy.cassette().httpExchanges.first?.exchange)
        #expect(
            exchange.error?.kind == "cancelled" && exchange.error?.message.contains("stopped") == true, "\(exchange)")
        let later = await proxy.forward(.init(method: "GET", target: "/later", headers: [:], body: []))
        #expect(later.status == 503 && later.recorded == nil && slow.started.withLock { $0 } == 1)
    }

    /// An upstream that answers after a minute, or when its caller is cancelled.
    final class SlowUpstream: HTTPTransport {
        let started = Mutex(0)
        /// Sends that ended by their cancellation.
        let cancelled = Mutex(0)
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            started.withLock { $0 += 1 }
            do { try await Task.sleep(for: .seconds(60)) } catch {
                cancelled.withLock { $0 += 1 }
                throw TransportError(kind: .cancelled, message: "cancelled", url: request.url)
            }
            return HTTPResponse(status: 200)
        }
    }

    /// `CONNECT` is answered 405 and an absolute-form or authority-form target 400, each with a body
    /// that says why; neither is forwarded or recorded.
    @Test(arguments: [
        ("CONNECT", "127.0.0.1:443", 405), ("GET", "http://127.0.0.1:7001/rps/x", 400), ("GET", "127.0.0.1:443", 400),
        ("OPTIONS", "*", 400),
    ])
    func connectAndAbsoluteTargetsAreRefused(method: String, target: String, status: Int) async throws {
        let upstream = ScriptedUpstream { _ in HTTPResponse(status: 200) }
        let proxy = RecordingProxy(
            upstream: Self.upstream, baseURL: Self.proxyURL, transport: upstream, header: Self.header())
        let answer = await proxy.forward(.init(method: method, target: target, headers: [:], body: []))
        #expect(answer.status == status && answer.recorded == nil)
        #expect(
            String(decoding: answer.body, as: UTF8.self).contains(method == "CONNECT" ? "CONNECT" : "origin-form"),
            "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(upstream.received.withLock { $0.isEmpty } && proxy.cassette().events.isEmpty)
        if status == 405 { #expect(answer.headers.contains("Allow") && answer.headers.contains("Proxy-Status")) }
    }

    @Test func anAbsoluteTargetKeepsOnlyItsPathAndQuery() {
        #expect(RecordingProxy.pathAndQuery("http://127.0.0.1:7001/rps/x?y=1") == "/rps/x?y=1")
        #expect(RecordingProxy.pathAndQuery("http://127.0.0.1:7001") == "/")
        #expect(RecordingProxy.pathAndQuery("/a") == "/a")
    }
}
