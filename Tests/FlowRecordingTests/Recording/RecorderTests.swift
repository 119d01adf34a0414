import SDKSeams
import Testing

@testable import FlowRecording

@Suite struct RecorderTests {
    @Test func recordsEveryKindWithActorsStepsAndExactBytes() async throws {
        let cassette = await Fixtures.record()
        #expect(
            cassette.events.map(\.type) == [
                "clock", "http", "random", "crypto", "http", "crypto", "http", "call", "http", "call",
            ])
        #expect(cassette.events.map { $0.step?.index ?? -1 } == [0, 0, 1, 1, 1, 1, 1, 1, 2, 2])
        #expect(cassette.events[8].actor == .browser)
        guard case .http(let pass1) = cassette.events[4].payload else {
            Issue.record("not http")
            return
        }
        #expect(String(decoding: pass1.request.body, as: UTF8.self).hasPrefix("{\n\t\"mpin_id\" : \"616c696365\""))
        #expect(pass1.request.headers.fields.map(\.name) == ["Content-Type", "Accept"])
        #expect(pass1.timings?.total == 0.005)
        guard case .random(let draw) = cassette.events[2].payload else { return }
        #expect(draw.purpose == "x" && draw.bytes == SeededRandom(seed: 7).randomBytes(count: 8))
    }

    @Test func sameSeedGivesIdenticalBytesWithoutTimings() async {
        let a = await Fixtures.record(seed: 3, timings: false)
        let b = await Fixtures.record(seed: 3, timings: false)
        #expect(a.canonicalBytes == b.canonicalBytes)
        #expect(!a.canonicalText.contains("\"timings\""))
        let c = await Fixtures.record(seed: 4, timings: false)
        #expect(a.canonicalBytes != c.canonicalBytes)
    }

    @Test func transportErrorsAreRecordedAndRethrown() async {
        struct Unreachable: HTTPTransport {
            func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
                throw TransportError(
                    kind: .hostNotFound, message: "Couldn't resolve host name", url: request.url, code: 6)
            }
        }
        let recorder = Recorder(header: Fixtures.header())
        let transport = recorder.transport(wrapping: Unreachable())
        await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: "https://unreachable.example/"))
        }
        guard case .http(let exchange) = recorder.events.first?.payload else {
            Issue.record("nothing recorded")
            return
        }
        #expect(
            exchange.response == nil
                && exchange.error == .init(kind: "hostNotFound", message: "Couldn't resolve host name", code: 6))
    }

    @Test func twoRecordingsInOneProcessDoNotMix() async {
        async let a = Fixtures.record(seed: 1, timings: false)
        async let b = Fixtures.record(seed: 2, timings: false)
        let (first, second) = await (a, b)
        #expect(first.events.count == 10 && second.events.count == 10)
        #expect(first.canonicalBytes == (await Fixtures.record(seed: 1, timings: false)).canonicalBytes)
        #expect(second.canonicalBytes == (await Fixtures.record(seed: 2, timings: false)).canonicalBytes)
    }

    @Test func exchangeTakesItsPlaceWhenSent() async {
        struct Slow: HTTPTransport {
            func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
                try? await Task.sleep(nanoseconds: 50_000_000)
                return HTTPResponse(status: 200)
            }
        }
        let recorder = Recorder(header: Fixtures.header())
        let transport = recorder.transport(wrapping: Slow())
        let task = Task { _ = try? await transport.send(HTTPRequest(method: .get, url: "http://x/slow")) }
        while recorder.pendingExchanges == 0 { await Task.yield() }
        recorder.recordCrypto(.init(primitive: "meanwhile"))
        await task.value
        #expect(recorder.events.map(\.type) == ["http", "crypto"])
    }
}
