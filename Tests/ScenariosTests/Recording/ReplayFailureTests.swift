import FlowRecording
import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Replay fails, at the scenario level, with the right report when the cassette is tampered with.
@Suite struct ReplayFailureTests {
    static let path = RepoPaths.recordings + "/access-number-logout.json"

    func cassette() throws -> Cassette { try CassetteFile.read(Self.path) }

    func replay(_ cassette: Cassette) async -> ReplayOutcome {
        let outcome = await ScenarioSession.replay(cassette, path: "tampered.json", library: RepoPaths.library)
        #expect(!outcome.passed, "the tampered cassette replayed")
        return outcome
    }

    func index(_ cassette: Cassette, _ predicate: (CassetteEvent) -> Bool) throws -> Int {
        let found = cassette.events.firstIndex(where: predicate)
        return try #require(found)
    }

    func isHTTP(_ path: String) -> (CassetteEvent) -> Bool {
        {
            if case .http(let exchange) = $0.payload {
                return exchange.request.url.hasSuffix(path)
            } else {
                return false
            }
        }
    }

    func isCrypto(_ primitive: String) -> (CassetteEvent) -> Bool {
        { if case .crypto(let step) = $0.payload { return step.primitive == primitive } else { return false } }
    }

    static func flip(_ text: String, at offset: Int) -> String {
        var chars = Array(text)
        chars[offset] = chars[offset] == "0" ? "1" : "0"
        return String(chars)
    }

    @Test func untouchedCassettePasses() async throws {
        let outcome = await ScenarioSession.replay(try cassette(), path: Self.path, library: RepoPaths.library)
        #expect(outcome.passed, "\(outcome)")
    }

    @Test func flippedResponseByteChangesTheNextCryptoStep() async throws {
        var cassette = try cassette()
        let pass1 = try index(cassette, isHTTP("/rps/pass1"))
        guard case .http(var exchange) = cassette.events[pass1].payload, var response = exchange.response else {
            throw CancellationError()
        }
        let text = String(decoding: response.body, as: UTF8.self)
        let y = try #require(text.firstRange(of: "\"y\""))
        let digit = try #require(text[y.upperBound...].firstIndex { $0.isHexDigit })
        response.body = Array(Self.flip(text, at: text.distance(from: text.startIndex, to: digit) + 5).utf8)
        exchange.response = response
        cassette.events[pass1].payload = .http(exchange)
        let outcome = await replay(cassette)
        #expect(outcome.kind == "cryptoMismatch")
        let client2 = try index(cassette, isCrypto("client2"))
        #expect(outcome.failure?.contains("diverged at event \(client2) (sdk, step") == true, "\(outcome)")
        // The step is the phone's login, which runs in the background of the browser's.
        #expect(
            outcome.failure?.contains(
                "\"the phone logs in; the server holds its answer until the browser has logged in\"") == true,
            "\(outcome)")
    }

    @Test func flippedCryptoIntermediateIsACryptoMismatch() async throws {
        var cassette = try cassette()
        let client1 = try index(cassette, isCrypto("client1"))
        guard case .crypto(var step) = cassette.events[client1].payload else { throw CancellationError() }
        step.outputs[0].value = Self.flip(step.outputs[0].value, at: 10)
        cassette.events[client1].payload = .crypto(step)
        let outcome = await replay(cassette)
        #expect(outcome.kind == "cryptoMismatch")
        #expect(outcome.failure?.contains("diverged at event \(client1) ") == true, "\(outcome)")
        #expect(outcome.failure?.contains("output \(step.outputs[0].name): expected") == true)
    }

    @Test func flippedRandomDrawChangesTheScalar() async throws {
        var cassette = try cassette()
        let draw = try index(cassette) { if case .random = $0.payload { return true } else { return false } }
        guard case .random(var random) = cassette.events[draw].payload else { throw CancellationError() }
        random.hex = Self.flip(random.hex, at: 0)
        cassette.events[draw].payload = .random(random)
        let outcome = await replay(cassette)
        #expect(outcome.kind == "cryptoMismatch", "\(outcome)")
        #expect(outcome.failure?.contains("randomScalar") == true)
    }

    @Test func droppedEventIsReportedWhereItWas() async throws {
        var cassette = try cassette()
        let pass2 = try index(cassette, isHTTP("/rps/pass2"))
        cassette.events.remove(at: pass2)
        let outcome = await replay(cassette)
        // The SDK's pass 2 meets the next recorded exchange in its place: a request mismatch there.
        #expect(["unexpectedEvent", "requestMismatch"].contains(outcome.kind), "\(outcome)")
        #expect(outcome.failure?.contains("diverged at event \(pass2) ") == true)
        #expect(outcome.failure?.contains("/rps/pass2") == true, "\(outcome)")
    }

    @Test func reorderedEventsAreReportedAtTheFirst() async throws {
        var cassette = try cassette()
        let client1 = try index(cassette, isCrypto("client1"))
        cassette.events.swapAt(client1, client1 + 1)
        let outcome = await replay(cassette)
        #expect(outcome.kind == "unexpectedEvent", "\(outcome)")
        #expect(outcome.failure?.contains("diverged at event \(client1) ") == true)
    }

    @Test func missingAndNewerCassettesAreDistinctErrors() async throws {
        let missing = await ScenarioSession.replay(file: "/nonexistent/x.json", library: RepoPaths.library)
        #expect(missing.kind == "cassette: missingFile")
        var text = String(decoding: try CassetteFile.readBytes(Self.path), as: UTF8.self)
        text = text.replacing("\"formatVersion\" : 1", with: "\"formatVersion\" : 9")
        text = text.replacing("\"formatVersion\": 1", with: "\"formatVersion\": 9")
        let file = TemporaryDirectory.unusedPath("newer") + ".json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let newer = await ScenarioSession.replay(file: file, library: RepoPaths.library)
        #expect(newer.kind == "cassette: newerFormatVersion", "\(newer)")
    }
}

/// A byte changed in a recorded response replays to a report that names that response, not only
/// the crypto step where the change shows.
@Suite struct TamperedResponseTests {
    @Test func theReportPointsAtTheChangedResponse() async throws {
        var cassette = try await recordEmbedded(
            try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml"))
        let (index, exchange) = try #require(
            cassette.httpExchanges.first { $0.exchange.request.url.contains("/clientSecret") })
        var response = try #require(exchange.response)
        var text = String(decoding: response.body, as: UTF8.self)
        let share = try #require(text.firstRange(of: "\"04")).upperBound
        // One hex digit of the share's x coordinate, still a hex string of the same length.
        let at = text.index(share, offsetBy: 10)
        text.replaceSubrange(at...at, with: text[at] == "0" ? "1" : "0")
        response.body = Array(text.utf8)
        var changed = exchange
        changed.response = response
        cassette.events[index].payload = .http(changed)
        let outcome = await ScenarioSession.replay(cassette, path: "authenticate.json", library: RepoPaths.library)
        #expect(
            outcome.failure?.contains("comes from the response of event \(index) (GET /dta2/clientSecret)") == true,
            "\(outcome)")
    }
}
