import CommonFormats
import OrderedJSON
import Testing

@testable import FlowRecording

@Suite struct RedactorTests {
    @Test func redactsEverywhereAndRestoresExactly() async throws {
        let cassette = await Fixtures.record()
        guard case .call(let call) = cassette.events.first(where: { $0.type == "call" })?.payload,
            let authOTT = call.outputs.first(where: { $0.name == "authOTT" })?.value
        else {
            Issue.record("no authenticate call")
            return
        }
        let redacted = Redactor(fields: ["pin", "authOTT", "x"]).redact(cassette)
        let text = redacted.canonicalText
        #expect(!text.contains(authOTT))
        #expect(text.contains("\"authOTT\": \"{{authOTT}}\""))  // JSON body, JSON-aware
        #expect(text.contains("/rps/access?authOTT={{authOTT}}"))  // the later URL that carries it
        #expect(text.contains("\"value\": \"{{pin}}\""))  // call argument
        #expect(Set(redacted.redactions.map(\.placeholder)) == ["pin", "authOTT", "x"])
        #expect(redacted.redactions.first { $0.placeholder == "authOTT" }?.occurrences == 3)
        // The random draw and every crypto value equal to it.
        guard case .random(let draw) = redacted.events.first(where: { $0.type == "random" })?.payload else { return }
        #expect(draw.hex == "{{x}}")
        // Through the file and back.
        let read = try CassetteFile.decode(Array(text.utf8))
        #expect(read == redacted)
        let values = ["authOTT": authOTT, "pin": "1234", "x": Hex.encode(SeededRandom(seed: 7).randomBytes(count: 8))]
        let restored = try Redactor.restore(read, values: values)
        var expected = cassette
        expected.redactions = []
        #expect(restored == expected)
        #expect(restored.canonicalBytes == cassette.canonicalBytes)
    }

    @Test func missingPlaceholderIsNamed() async throws {
        let redacted = Redactor(fields: ["pin", "authOTT"]).redact(await Fixtures.record())
        #expect { try Redactor.restore(redacted, values: ["pin": "1234"], path: "toy.json") } throws: { error in
            let error = error as! RedactionError
            return error.missing == ["authOTT"] && error.description.contains("{{authOTT}}")
                && error.description.hasPrefix("toy.json")
        }
        await #expect { _ = try await Fixtures.replay(redacted, placeholders: [:]) } throws: { error in
            let error = error as! ReplayError
            return error.kind == .missingPlaceholders && error.description.contains("{{authOTT}}, {{pin}}")
        }
    }

    @Test func replayOfRedactedCassetteWithValuesPasses() async throws {
        let cassette = await Fixtures.record()
        let redacted = Redactor(fields: ["pin"]).redact(cassette)
        _ = try await Fixtures.replay(redacted, placeholders: ["pin": "1234"])
    }

    @Test func distinctValuesGetNumberedPlaceholdersAndRedactingTwiceKeepsOldOnes() {
        var cassette = Fixtures.header()
        cassette.events = [
            CassetteEvent(.crypto(.init(primitive: "p", outputs: [.init("token", "aaaa")]))),
            CassetteEvent(.crypto(.init(primitive: "p", outputs: [.init("token", "bbbb")]))),
            CassetteEvent(
                .http(
                    .init(
                        request: .init(method: "GET", url: "http://x/a/bbbb", headers: ["Authorization": "Bearer q"]),
                        response: .init(status: 200, body: Array("plain text with secret-cccccccc inside".utf8))))),
            CassetteEvent(.crypto(.init(primitive: "p", outputs: [.init("session", "secret-cccccccc")]))),
        ]
        let once = Redactor(fields: ["token"]).redact(cassette)
        #expect(once.redactions.map(\.placeholder) == ["token", "token_2"])
        let twice = Redactor(fields: ["authorization", "session"]).redact(once)
        #expect(twice.redactions.map(\.placeholder) == ["token", "token_2", "authorization", "session"])
        guard case .http(let exchange) = twice.events[2].payload else { return }
        #expect(exchange.request.url == "http://x/a/{{token_2}}")
        #expect(exchange.request.headers["Authorization"] == "{{authorization}}")  // named as given
        #expect(exchange.response?.bodyTextForTest == "plain text with {{session}} inside")
        let restored = try? Redactor.restore(
            twice,
            values: [
                "token": "aaaa", "token_2": "bbbb", "authorization": "Bearer q",
                "session": "secret-cccccccc",
            ])
        #expect(restored?.events == cassette.events)
    }

    /// The script a cassette carries names the PINs in clear (a wrong one only there): redaction
    /// hides them, numbers included, and restoring brings back the strings.
    @Test func theScenarioScriptIsRedactedToo() throws {
        var cassette = Fixtures.header()
        cassette.scenario.script = .object([
            .init("name", "login"),
            .init(
                "steps",
                .array([
                    .object([
                        .init("sdk", "finishRegistration"),
                        .init("with", .object([.init("user", "bob"), .init("pin", "1234")])),
                    ]),
                    .object([
                        .init("sdk", "finishAuthentication"),
                        .init("with", .object([.init("user", "bob"), .init("pin", 1111)])),
                    ]),
                    .object([
                        .init("sdk", "finishAuthentication"),
                        .init("with", .object([.init("user", "bob"), .init("pin", "$pin")])),
                    ]),
                ])),
        ])
        cassette.events = [
            CassetteEvent(
                .call(.init(name: "finishRegistration", arguments: [.init("pin", "1234")], status: .init(code: "OK"))))
        ]
        let redacted = Redactor(fields: ["pin"]).redact(cassette)
        let text = redacted.canonicalText
        #expect(!text.contains("1234") && !text.contains("1111"))
        #expect(
            text.contains("\"pin\": \"{{pin}}\"") && text.contains("\"pin\": \"{{pin_2}}\"")
                && text.contains("\"$pin\""))
        #expect(Redactor.placeholderNames(in: redacted) == ["pin", "pin_2"])
        #expect(throws: RedactionError.self) { try Redactor.restore(redacted, values: ["pin": "1234"]) }
        let restored = try Redactor.restore(redacted, values: ["pin": "1234", "pin_2": "1111"])
        #expect(restored.events == cassette.events)
        let steps = restored.scenario.script?["steps"]?.arrayValue ?? []
        #expect(steps.map { $0["with"]?["pin"] } == ["1234", "1111", "$pin"])
    }

    /// A server's body may repeat a member name (the SDK reads such bodies); its secrets are still
    /// found by name, not left in place because the body is not strict JSON.
    @Test func aBodyWithARepeatedNameIsRedactedByName() {
        let body = Array(#"{"authOTT": "0123456789abcdef", "note": "a", "note": "b"}"#.utf8)
        let exchange = CassetteEvent.HTTPExchange(
            request: CassetteEvent.HTTPExchange.Request(method: "POST", url: "http://127.0.0.1:8005/rps/pass2"),
            response: CassetteEvent.HTTPExchange.Response(status: 200, body: body))
        var cassette = Cassette(
            tool: .init(name: "test", version: "0"), curve: "BN254CX", scenario: .init(name: "repeat"),
            backend: .init(url: "http://127.0.0.1:8005", flavour: "milagro"))
        cassette.events = [CassetteEvent(actor: .sdk, .http(exchange))]
        let redacted = Redactor(fields: ["authOTT"]).redact(cassette)
        guard case .http(let result) = redacted.events[0].payload, let response = result.response else {
            Issue.record("no exchange")
            return
        }
        #expect(
            String(decoding: response.body, as: UTF8.self) == #"{"authOTT": "{{authOTT}}", "note": "a", "note": "b"}"#)
    }

    /// Secrets in text are found by their bytes: one that a combining mark after it joins to a
    /// wider character (invisible to a `Character` search) is hidden too; a secret holding another
    /// is replaced whole, whatever the order of the values; restoring gives the exact bytes back.
    @Test func secretsInTextAreFoundByBytes() throws {
        var cassette = Fixtures.header()
        let text = "cafe\u{301}: secret-cccccccc\u{301}, secret-cccccccc-longer and secret-cccccccc"
        cassette.events = [
            CassetteEvent(.crypto(.init(primitive: "p", outputs: [.init("session", "secret-cccccccc")]))),
            CassetteEvent(.crypto(.init(primitive: "p", outputs: [.init("session", "secret-cccccccc-longer")]))),
            CassetteEvent(
                .http(
                    .init(
                        request: .init(method: "GET", url: "http://x/a"),
                        response: .init(status: 200, body: Array(text.utf8))))),
        ]
        let redacted = Redactor(fields: ["session"]).redact(cassette)
        guard case .http(let exchange) = redacted.events[2].payload else { return }
        #expect(
            exchange.response?.bodyTextForTest == "cafe\u{301}: {{session}}\u{301}, {{session_2}} and {{session}}")
        #expect(redacted.redactions.map(\.occurrences) == [3, 2])
        let restored = try Redactor.restore(
            redacted, values: ["session": "secret-cccccccc", "session_2": "secret-cccccccc-longer"])
        #expect(restored.canonicalBytes == cassette.canonicalBytes)
    }
}

extension CassetteEvent.HTTPExchange.Response {
    var bodyTextForTest: String { String(decoding: body, as: UTF8.self) }
}
