import OrderedJSON
import SDKSeams
import TestSupport
import Testing

@testable import FlowRecording

@Suite struct ReplayerTests {
    /// Replays and returns the error, failing the test when replay passes.
    func divergence(_ cassette: Cassette, mode: ReplayMode? = nil) async -> ReplayError? {
        do {
            _ = try await Fixtures.replay(cassette, mode: mode)
            Issue.record("replay passed but should have failed")
            return nil
        } catch {
            return error as? ReplayError
        }
    }

    @Test func modeNamesParse() {
        #expect(ReplayMode(name: "strict") == .strict && ReplayMode(name: "method-url") == .methodURL)
        #expect(ReplayMode(name: "loose") == .methodURL && ReplayMode(name: "json") == .json)
        #expect(ReplayMode(name: "ignore", ignoring: ["U"]) == .ignore(["U"]) && ReplayMode(name: "fuzzy") == nil)
    }

    @Test func strictPassesOnIdenticalRun() async throws {
        let cassette = await Fixtures.record()
        let replayer = try await Fixtures.replay(cassette)
        #expect(replayer.usedEvents.count == cassette.events.count)
        #expect(replayer.failure == nil)
    }

    @Test func flippedResponseByteIsReportedAtTheCryptoItChanges() async throws {
        var cassette = await Fixtures.record()
        let pass1 = Fixtures.index(of: cassette, where: Fixtures.isHTTP("/rps/pass1"))
        guard case .http(var exchange) = cassette.events[pass1].payload, var response = exchange.response else {
            return
        }
        let text = String(decoding: response.body, as: UTF8.self)
        let y = text.firstRange(of: "\"y\": \"")!.upperBound
        response.body = Array(Fixtures.flipHexDigit(text, at: text.distance(from: text.startIndex, to: y) + 3).utf8)
        exchange.response = response
        cassette.events[pass1].payload = .http(exchange)
        let error = try #require(await divergence(cassette))
        let client2 = Fixtures.index(of: cassette, where: Fixtures.isCrypto("client2"))
        #expect(error.kind == .cryptoMismatch)
        #expect(error.report.eventIndex == client2)
        #expect(error.report.step == ScenarioStep(index: 1, name: "authenticate"))
        #expect(error.report.differences.contains { $0.hasPrefix("input y: expected") })
        #expect(
            error.description.contains(
                "Recordings/toy.json: replay (strict) diverged at event \(client2) (sdk, step 1 \"authenticate\", "
                    + "in the call authenticate)"))
        #expect(
            error.description.contains(
                "mpin-workbench record Scenarios/toy-authenticate.yaml --embedded --seed 7 --out Recordings/toy.json"))
        // The first lines show the change: the y of each (the toy's values are short enough to show whole).
        let expected = try #require(error.report.expected), actual = try #require(error.report.actual)
        func yField(_ line: String) -> Substring? { line.split(separator: " ").first { $0.hasPrefix("y=") } }
        #expect(yField(expected) != nil && yField(expected) != yField(actual), "\(error)")
        let lines = error.description.split(separator: "\n").prefix(3).joined(separator: "\n")
        #expect(lines.contains("expected: crypto client2") && lines.contains("actual:   crypto client2"))
    }

    @Test func flippedRequestBodyByteIsARequestMismatchWithJSONPath() async throws {
        var cassette = await Fixtures.record()
        let pass1 = Fixtures.index(of: cassette, where: Fixtures.isHTTP("/rps/pass1"))
        guard case .http(var exchange) = cassette.events[pass1].payload else { return }
        let text = String(decoding: exchange.request.body, as: UTF8.self)
        let u = text.firstRange(of: "\"U\" : \"")!.upperBound
        exchange.request.body = Array(Fixtures.flipHexDigit(text, at: text.distance(from: text.startIndex, to: u)).utf8)
        cassette.events[pass1].payload = .http(exchange)
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .requestMismatch)
        #expect(error.report.eventIndex == pass1)
        #expect(error.report.differences.count == 1)
        #expect(error.report.differences[0].hasPrefix("body $.U: expected \""))
        #expect(
            error.report.closest?.contains(
                "event \(pass1) (sdk, step 1 \"authenticate\"): POST http://127.0.0.1:8005/rps/pass1 (the expected one) — differs in body $.U"
            ) == true)
        #expect(error.report.expected?.hasPrefix("http POST http://127.0.0.1:8005/rps/pass1") == true)
    }

    @Test func flippedCryptoIntermediateIsACryptoMismatch() async throws {
        var cassette = await Fixtures.record()
        let client1 = Fixtures.index(of: cassette, where: Fixtures.isCrypto("client1"))
        guard case .crypto(var step) = cassette.events[client1].payload else { return }
        step.outputs[0].value = Fixtures.flipHexDigit(step.outputs[0].value, at: 5)
        cassette.events[client1].payload = .crypto(step)
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .cryptoMismatch)
        #expect(error.report.eventIndex == client1)
        #expect(error.report.differences.count == 1 && error.report.differences[0].hasPrefix("output U: expected"))
    }

    @Test func flippedRandomDrawShowsAtTheFirstUse() async throws {
        var cassette = await Fixtures.record()
        let draw = cassette.events.firstIndex { $0.type == "random" }!
        guard case .random(var random) = cassette.events[draw].payload else { return }
        random.hex = Fixtures.flipHexDigit(random.hex, at: 0)
        cassette.events[draw].payload = .random(random)
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .cryptoMismatch)
        #expect(error.report.eventIndex == draw + 1)
        #expect(error.report.differences.map { String($0.prefix(8)) } == ["input x:", "output U"])
    }

    @Test func randomDrawOfAnotherSize() async throws {
        var cassette = await Fixtures.record()
        let draw = cassette.events.firstIndex { $0.type == "random" }!
        cassette.events[draw].payload = .random(.init(purpose: "x", bytes: [1, 2, 3]))
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .randomMismatch && error.report.eventIndex == draw)
        #expect(error.report.summary == "the re-run asked for 8 random bytes, the recording drew 3")
    }

    @Test func droppedEventIsAnUnexpectedEvent() async throws {
        var cassette = await Fixtures.record()
        let draw = cassette.events.firstIndex { $0.type == "random" }!
        cassette.events.remove(at: draw)
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .unexpectedEvent)
        #expect(error.report.eventIndex == draw)
        #expect(
            error.report.summary
                == "the re-run made a draw of 8 random bytes (sdk) where the cassette has a crypto event")
    }

    @Test func droppedLastEventExhaustsTheCassette() async throws {
        var cassette = await Fixtures.record()
        cassette.events.removeLast()
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .cassetteExhausted && error.report.eventIndex == nil)
        #expect(error.report.step == ScenarioStep(index: 2, name: "browser polls"))
    }

    @Test func reorderedEventsAreReported() async throws {
        var cassette = await Fixtures.record()
        let pass2 = Fixtures.index(of: cassette, where: Fixtures.isHTTP("/rps/pass2"))
        cassette.events.swapAt(pass2 - 1, pass2)
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .unexpectedEvent)
        #expect(error.report.eventIndex == pass2 - 1)
        #expect(error.report.expected?.hasPrefix("http POST http://127.0.0.1:8005/rps/pass2") == true)
    }

    @Test func unusedEventsAtTheEndFail() async throws {
        var cassette = await Fixtures.record()
        cassette.events.append(CassetteEvent(.clock(.init(milliseconds: 1))))
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .unusedEvents)
        #expect(error.report.eventIndex == cassette.events.count - 1)
    }

    @Test func requestToTheWrongPlaceNamesTheClosestRecordedRequest() async throws {
        let cassette = await Fixtures.record()
        let replayer = try Replayer(cassette: cassette, path: "toy.json")
        _ = replayer.clock().nowMilliseconds()
        let response = try? await replayer.transport().send(
            HTTPRequest(method: .post, url: ToyFlow.base + "/rps/pass2", body: Array("{}".utf8)))
        #expect(response == nil)
        let error = try #require(replayer.failure)
        #expect(error.kind == .requestMismatch && error.report.eventIndex == 1)
        #expect(
            error.report.closest?.contains("POST http://127.0.0.1:8005/rps/pass2 — differs in body $.V: missing")
                == true)
        #expect(throws: ReplayError.self) { try replayer.finish() }
    }

    @Test func divergenceThrowsATransportErrorForTheSDK() async throws {
        let replayer = try Replayer(cassette: await Fixtures.record())
        do {
            _ = try await replayer.transport().send(HTTPRequest(method: .get, url: "http://elsewhere/"))
            Issue.record("no error")
        } catch {
            #expect(
                error.kind == .replayDivergence && error.message.hasPrefix("not sent: the replay diverged at event"))
        }
    }

    // MARK: - Loose modes

    func withPass1Body(_ cassette: Cassette, _ transform: (String) -> String) -> Cassette {
        var copy = cassette
        let pass1 = Fixtures.index(of: copy, where: Fixtures.isHTTP("/rps/pass1"))
        guard case .http(var exchange) = copy.events[pass1].payload else { return copy }
        exchange.request.body = Array(transform(String(decoding: exchange.request.body, as: UTF8.self)).utf8)
        exchange.request.headers = ["accept": "text/plain", "content-type": "application/json; charset=UTF-8"]
        copy.events[pass1].payload = .http(exchange)
        return copy
    }

    @Test func jsonModeIgnoresFormattingMemberOrderAndHeaderOrder() async throws {
        let cassette = await Fixtures.record()
        let reformatted = withPass1Body(cassette) { text in
            let value = try! JSONParser.parse(text)
            return JSONWriter.compact(value, sorted: true)
        }
        let strict = try #require(await divergence(reformatted))
        #expect(strict.kind == .requestMismatch)
        #expect(strict.report.differences.contains { $0.hasPrefix("header 1: expected \"accept: text/plain\"") })
        #expect(strict.report.differences.contains { $0.hasPrefix("body: the same JSON written differently") })
        _ = try await Fixtures.replay(reformatted, mode: .json)
    }

    @Test func ignoreModeSkipsListedFields() async throws {
        let cassette = await Fixtures.record()
        let changed = withPass1Body(cassette) { $0.replacing("616c696365", with: "626f62") }
        let json = try #require(await divergence(changed, mode: .json))
        #expect(
            json.report.differences == ["body $.mpin_id: expected \"616c696365\", got \"626f62\""]
                || json.report.differences.contains { $0.contains("mpin_id") })
        _ = try await Fixtures.replay(changed, mode: .ignore(["mpin_id"]))
    }

    @Test func methodURLModeComparesOnlyMethodURLAndOrder() async throws {
        let cassette = await Fixtures.record()
        let changed = withPass1Body(cassette) { _ in "anything" }
        _ = try await Fixtures.replay(changed, mode: .methodURL)
        var moved = cassette
        let pass2 = Fixtures.index(of: moved, where: Fixtures.isHTTP("/rps/pass2"))
        guard case .http(var exchange) = moved.events[pass2].payload else { return }
        exchange.request.url += "?v=2"
        moved.events[pass2].payload = .http(exchange)
        let error = try #require(await divergence(moved, mode: .methodURL))
        #expect(error.kind == .requestMismatch && error.report.differences.first?.hasPrefix("url: expected") == true)
    }

    @Test func cassetteOfAnotherImplementationReplaysWithFallbacks() async throws {
        // Only the HTTP exchanges, as imported cassettes have; the cassette asks for method-url itself.
        var cassette = await Fixtures.record()
        cassette.events.removeAll { $0.type != "http" }
        cassette.replayMode = .methodURL
        let replayer = try await Fixtures.replay(cassette)
        #expect(replayer.mode == .methodURL)
        #expect(replayer.usedEvents.count == 4)
    }

    @Test func strictModeReportsAnotherActor() async throws {
        var cassette = await Fixtures.record()
        let poll = Fixtures.index(of: cassette, where: Fixtures.isHTTP("/rps/access"))
        cassette.events[poll].actor = .sdk
        let error = try #require(await divergence(cassette))
        #expect(error.kind == .unexpectedEvent && error.report.eventIndex == poll)
    }
}

@Suite struct ReplayerRunTests {
    @Test func oneCallPerCassetteFile() async throws {
        let directory = try TemporaryDirectory.make("flowrecording-tests")
        defer { FileManagerShim.remove(directory) }
        let path = directory + "/toy.json"
        let recorder = Recorder(header: Fixtures.header())
        await ToyFlow.run(
            sdk: recorder.transport(wrapping: ToyServer()),
            browser: recorder.transport(wrapping: ToyServer(), actor: .browser),
            random: recorder.randomSource(wrapping: SeededRandom(seed: 7), purpose: "x"),
            clock: recorder.clock(wrapping: FixedClock()), sink: ToyFlow.RecorderSink(recorder: recorder),
            step: { recorder.beginStep($0) })
        let written = try recorder.write(to: path, redacting: ["pin"])
        #expect(written.redactions.map(\.placeholder) == ["pin"])
        try await Replayer.run(cassetteAt: path, placeholders: ["pin": "1234"]) { seams in
            await ToyFlow.run(
                sdk: seams.transport, browser: seams.browserTransport, random: seams.randomSource, clock: seams.clock,
                sink: ToyFlow.ReplayerSink(replayer: seams.replayer), step: { seams.replayer.beginStep($0) })
        }
        await #expect(throws: CassetteError.self) {
            try await Replayer.run(cassetteAt: directory + "/missing.json") { _ in }
        }
        await #expect(throws: ReplayError.self) {
            try await Replayer.run(cassetteAt: path, placeholders: ["pin": "1234"]) { _ in }
        }
    }
}
