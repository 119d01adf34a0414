import OrderedJSON
import Testing

@testable import FlowRecording

/// A placeholder is filled only where the redactor put it: the manifest says where (`at`), and a
/// `{{pin}}` planted anywhere else stays as it is, so serving or replaying the cassette with the
/// PIN never writes the PIN there.
@Suite struct RedactionSlotTests {
    static func exchange(request: String, response: String) -> CassetteEvent {
        CassetteEvent(
            actor: .sdk,
            .http(
                .init(
                    request: .init(method: "POST", url: "http://127.0.0.1:8005/rps/login", body: Array(request.utf8)),
                    response: .init(status: 200, body: Array(response.utf8)))))
    }

    static func cassette(_ events: [CassetteEvent]) -> Cassette {
        Cassette(
            tool: .init(name: "mpin-workbench", version: "test"), curve: "BN254CX",
            scenario: .init(name: "slots", seed: "s1"),
            backend: .init(url: "http://127.0.0.1:8005", flavour: "milagro"), events: events)
    }

    @Test func aPlantedPlaceholderIsNotFilled() throws {
        let plain = Self.cassette([Self.exchange(request: #"{"pin":"1234"}"#, response: #"{"message":"welcome"}"#)])
        let redacted = Redactor(fields: ["pin"]).redact(plain)
        #expect(redacted.redactions.first?.slots == [RedactionSlot(event: 0, part: .request)])
        // Someone edits the file: the public message now holds the PIN's placeholder too.
        var planted = redacted
        planted.events = [Self.exchange(request: #"{"pin":"{{pin}}"}"#, response: #"{"message":"{{pin}}"}"#)]
        let read = try CassetteFile.decode(planted.canonicalBytes)
        #expect(read.redactions == planted.redactions)
        let restored = try Redactor.restore(read, values: ["pin": "1234"])
        guard case .http(let exchange) = restored.events[0].payload else {
            Issue.record("not an exchange")
            return
        }
        #expect(String(decoding: exchange.request.body, as: UTF8.self) == #"{"pin":"1234"}"#)
        #expect(String(decoding: exchange.response!.body, as: UTF8.self) == #"{"message":"{{pin}}"}"#)
        #expect(
            Redactor.unlistedPlaceholders(in: read).map { "\($0.placeholder) \($0.slot)" } == ["pin events[0].response"]
        )
        #expect(
            CassetteLint.check(bytes: read.canonicalBytes, path: "planted.json").contains {
                $0.message.contains("not where the redactor put it")
            })
    }

    @Test func aPlaceholderInAnotherEventIsNotFilled() throws {
        let plain = Self.cassette([
            Self.exchange(request: #"{"pin":"1234"}"#, response: "{}"),
            Self.exchange(request: "{}", response: #"{"message":"hello"}"#),
        ])
        var planted = Redactor(fields: ["pin"]).redact(plain)
        planted.events[1] = Self.exchange(request: "{}", response: #"{"message":"{{pin}}"}"#)
        let restored = try Redactor.restore(planted, values: ["pin": "1234"])
        #expect(
            !restored.canonicalText.contains(#""message": "1234""#)
                && !restored.canonicalText.contains(#"\"message\":\"1234\""#))
    }

    @Test func theSeedIsRedactedInTheHeaderAndTheScriptOnly() throws {
        var plain = Self.cassette([Self.exchange(request: #"{"path":"s1"}"#, response: "{}")])
        plain.scenario.script = .object([.init("name", .string("slots")), .init("seed", .string("s1"))])
        let redacted = Redactor(fields: [Redactor.seedField]).redact(plain)
        #expect(redacted.scenario.seed == "{{seed}}")
        #expect(redacted.scenario.script?["seed"] == .string("{{seed}}"))
        // Elsewhere the same text is a word of the flow, left as it is.
        #expect(redacted.canonicalText.contains(#"{\"path\":\"s1\"}"#))
        #expect(redacted.redactions == [.init(placeholder: "seed", field: "seed", occurrences: 2, slots: [.scenario])])
        let restored = try Redactor.restore(redacted, values: ["seed": "s1"])
        var expected = plain
        expected.redactions = []
        #expect(restored == expected)
    }

    @Test(arguments: ["events[-1]", "events[]", "events[1].body", "event[1]", "scenario.seed", "events[99999999999]"])
    func aMalformedSlotIsRefused(_ slot: String) {
        let text =
            #"{"formatVersion": 1, "tool": {"name": "t", "version": "1"}, "curve": "BN254CX", "scenario": {"name": "n"}, "#
            + #""backend": {"url": "http://127.0.0.1:1", "flavour": "milagro"}, "redactions": [{"placeholder": "p", "field": "f", "#
            + #""occurrences": 1, "at": ["\#(slot)"]}], "events": []}"#
        #expect { try CassetteFile.decode(Array(text.utf8)) } throws: { "\($0)".contains("at[0]") }
    }

    @Test(arguments: ["scenario", "events[0]", "events[12].request", "events[3].response"])
    func slotsReadBack(_ text: String) {
        #expect(RedactionSlot(text)?.description == text)
    }
}
