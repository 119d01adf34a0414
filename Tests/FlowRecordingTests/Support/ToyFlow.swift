import CommonFormats
import OrderedJSON
import SDKSeams
import TestSupport

@testable import FlowRecording

/// A small deterministic flow over the three seams, shaped like an M-Pin authentication: read the
/// clock, fetch settings, draw a random x, "client1", pass 1, "client2" with the server's y, pass 2,
/// then the browser polls with the authOTT in the URL. The crypto here is a toy (byte sums); what
/// matters is that every output depends on the random draw and the responses.
enum ToyFlow {
    static let base = "http://127.0.0.1:8005"

    /// Receives the flow's API results and crypto steps (a `Recorder` or a `Replayer`).
    protocol Sink: Sendable {
        func call(_ call: CassetteEvent.Call)
        func crypto(_ step: CassetteEvent.CryptoStep)
    }

    struct RecorderSink: Sink {
        let recorder: Recorder
        func call(_ call: CassetteEvent.Call) { recorder.recordCall(call) }
        func crypto(_ step: CassetteEvent.CryptoStep) { recorder.recordCrypto(step) }
    }

    struct ReplayerSink: Sink {
        let replayer: Replayer
        func call(_ call: CassetteEvent.Call) { replayer.check(call: call) }
        func crypto(_ step: CassetteEvent.CryptoStep) { replayer.check(crypto: step) }
    }

    static func mix(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        (0..<max(a.count, b.count)).map { i in
            (i < a.count ? a[i] : 0) &* 31 &+ (i < b.count ? b[i] : 0) &+ UInt8(truncatingIfNeeded: i)
        }
    }

    static func json(_ response: HTTPResponse?) -> JSONValue? {
        response.flatMap { try? JSONParser.parse($0.body) }
    }

    /// Runs the flow. `step` marks scenario steps on whichever side records or replays.
    static func run(
        sdk: any HTTPTransport, browser: any HTTPTransport, random: any RandomSource, clock: any SDKClock,
        sink: any Sink, step: (ScenarioStep) -> Void
    ) async {
        step(ScenarioStep(index: 0, name: "settings"))
        let now = clock.nowMilliseconds()
        _ = try? await sdk.send(HTTPRequest(method: .get, url: base + "/rps/clientSettings"))
        step(ScenarioStep(index: 1, name: "authenticate"))
        let x = random.randomBytes(count: 8)
        let u = mix(x, Array("alice".utf8))
        sink.crypto(
            .init(primitive: "client1", inputs: [.init("x", Hex.encode(x))], outputs: [.init("U", Hex.encode(u))]))
        let pass1Body = "{\n\t\"mpin_id\" : \"616c696365\",\n\t\"U\" : \"\(Hex.encode(u))\"\n}"
        let pass1 = try? await sdk.send(
            HTTPRequest(
                method: .post, url: base + "/rps/pass1",
                headers: ["Content-Type": "application/json; charset=UTF-8", "Accept": "text/plain"],
                body: Array(pass1Body.utf8)))
        let y = json(pass1)?["y"]?.stringValue ?? ""
        let v = mix(x, Hex.decode(y) ?? [])
        sink.crypto(
            .init(
                primitive: "client2", inputs: [.init("x", Hex.encode(x)), .init("y", y)],
                outputs: [.init("V", Hex.encode(v))]))
        let pass2Body = "{\"V\": \"\(Hex.encode(v))\", \"time\": \(now)}"
        let pass2 = try? await sdk.send(
            HTTPRequest(method: .post, url: base + "/rps/pass2", body: Array(pass2Body.utf8)))
        let authOTT = json(pass2)?["authOTT"]?.stringValue ?? ""
        sink.call(
            .init(
                name: "authenticate", arguments: [.init("user", "alice"), .init("pin", "1234")],
                status: .init(code: pass2?.status == 200 ? "OK" : "NETWORK_ERROR"), userState: "REGISTERED",
                outputs: [.init("authOTT", authOTT)]))
        step(ScenarioStep(index: 2, name: "browser polls"))
        let poll = try? await browser.send(HTTPRequest(method: .get, url: base + "/rps/access?authOTT=\(authOTT)"))
        sink.call(.init(name: "poll", status: .init(code: poll?.status == 200 ? "OK" : "FAILED")))
    }
}

/// The backend of the toy flow: answers from the request, deterministically.
struct ToyServer: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let path = URLText.path(request.url)
        let body = (try? JSONParser.parse(request.body)) ?? .null
        let timings = HTTPTimings(
            dns: 0.001, connect: 0.002, tls: 0, requestSent: 0.002, firstByte: 0.004, total: 0.005)
        func ok(_ text: String) -> HTTPResponse {
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Array(text.utf8), timings: timings)
        }
        switch path {
        case "/rps/clientSettings": return ok(#"{"mpinAuthServerURL": "/rps", "accessNumberDigits": 7}"#)
        case "/rps/pass1":
            let u = Hex.decode(body["U"]?.stringValue ?? "") ?? []
            return ok("{\"pass\": 1, \"y\": \"\(Hex.encode(ToyFlow.mix(u, [7, 7, 7])))\"}")
        case "/rps/pass2":
            let v = Hex.decode(body["V"]?.stringValue ?? "") ?? []
            return ok("{\"pass\": 2, \"authOTT\": \"\(Hex.encode(ToyFlow.mix(v, [1, 2, 3, 4])))\"}")
        case "/rps/access": return ok(#"{"status": "authenticate"}"#)
        default: return HTTPResponse(status: 404, body: Array("not found".utf8))
        }
    }
}

/// A seeded random source over SplitMix64, for tests only.
final class SeededRandom: RandomSource, @unchecked Sendable {
    private var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    func randomBytes(count: Int) -> [UInt8] { generator.bytes(count) }
}

extension FixedClock {
    /// 2026-01-01T00:00:00Z, the time of the toy flow.
    init() { self.init(milliseconds: 1_767_225_600_000) }
}

enum Fixtures {
    static func header(name: String = "toy-authenticate") -> Cassette {
        Cassette(
            tool: .init(name: "mpin-workbench", version: "0.1.0"), curve: "BN254CX",
            scenario: .init(
                name: name, path: "Scenarios/\(name).yaml", seed: "7",
                script: .object([.init("steps", ["settings", "authenticate", "browser polls"])])),
            backend: .init(url: ToyFlow.base, flavour: "milagro", embedded: true))
    }

    /// Records the toy flow.
    static func record(seed: UInt64 = 7, timings: Bool = true) async -> Cassette {
        let recorder = Recorder(header: header(), recordsTimings: timings)
        await ToyFlow.run(
            sdk: recorder.transport(wrapping: ToyServer()),
            browser: recorder.transport(wrapping: ToyServer(), actor: .browser),
            random: recorder.randomSource(wrapping: SeededRandom(seed: seed), purpose: "x"),
            clock: recorder.clock(wrapping: FixedClock()),
            sink: ToyFlow.RecorderSink(recorder: recorder), step: { recorder.beginStep($0) })
        return recorder.cassette()
    }

    /// Replays the toy flow against `cassette`; returns the replayer after `finish()` (or its error).
    static func replay(
        _ cassette: Cassette, mode: ReplayMode? = nil, placeholders: [String: String] = [:],
        path: String? = "Recordings/toy.json"
    ) async throws -> Replayer {
        let replayer = try Replayer(
            cassette: cassette, mode: mode, placeholders: placeholders, path: path,
            fallbackRandom: SeededRandom(seed: 7), fallbackClock: FixedClock())
        await ToyFlow.run(
            sdk: replayer.transport(), browser: replayer.transport(actor: .browser),
            random: replayer.randomSource(), clock: replayer.clock(),
            sink: ToyFlow.ReplayerSink(replayer: replayer), step: { replayer.beginStep($0) })
        try replayer.finish()
        return replayer
    }

    static func index(of cassette: Cassette, where predicate: (CassetteEvent) -> Bool) -> Int {
        cassette.events.firstIndex(where: predicate)!
    }

    static func isHTTP(_ path: String) -> (CassetteEvent) -> Bool {
        { event in
            if case .http(let exchange) = event.payload { return URLText.path(exchange.request.url) == path }
            return false
        }
    }

    static func isCrypto(_ primitive: String) -> (CassetteEvent) -> Bool {
        { event in
            if case .crypto(let step) = event.payload { return step.primitive == primitive }
            return false
        }
    }

    /// Flips the last bit of the byte at `offset` of a hex or text string (stays a hex digit).
    static func flipHexDigit(_ text: String, at offset: Int) -> String {
        var chars = Array(text)
        chars[offset] = chars[offset] == "0" ? "1" : "0"
        return String(chars)
    }
}
