import Testing

@testable import FlowRecording

@Suite struct CassetteToolsTests {
    @Test func timelineListsStepsAndEvents() async {
        let text = CassetteTimeline.text(await Fixtures.record(timings: false), path: "toy.json")
        #expect(text.hasPrefix("toy.json: scenario \"toy-authenticate\" (Scenarios/toy-authenticate.yaml), seed 7\n"))
        #expect(text.contains("  10 events: 2 call, 4 http, 2 crypto, 1 random, 1 clock\n"))
        #expect(text.contains("0. settings\n  #0 sdk     clock 1767225600000 (2026-01-01T00:00:00.000Z)\n"))
        #expect(text.contains("  #8 browser http GET http://127.0.0.1:8005/rps/access?authOTT="))
        #expect(text.contains("call authenticate(user: alice, pin: 1234) -> OK, user REGISTERED, returns authOTT="))
    }

    @Test func diffIsJSONAwareAndListsAll() async {
        let a = await Fixtures.record(seed: 7)
        var b = a
        let pass1 = Fixtures.index(of: b, where: Fixtures.isHTTP("/rps/pass1"))
        guard case .http(var exchange) = b.events[pass1].payload, var response = exchange.response else { return }
        response.body = Array(#"{"pass": 1, "y": "00"}"#.utf8)
        exchange.response = response
        b.events[pass1].payload = .http(exchange)
        b.backend.flavour = "mfa-platform"
        let found = CassetteDiff.differences(a, b)
        #expect(found.count == 2)
        #expect(found[0].description == "backend.flavour: \"milagro\" in the first, \"mfa-platform\" in the second")
        #expect(found[1].eventIndex == pass1 && found[1].detail.hasPrefix("response body $.y: \""))
        let text = CassetteDiff.text(a, b, names: ("a.json", "b.json"))
        #expect(text.hasPrefix("a.json and b.json: 2 differences\nfirst: backend.flavour"))
        #expect(CassetteDiff.text(a, a, names: ("a", "b")) == "a and b: no differences\n")
        // Live timings are ignored unless asked for.
        var c = a
        guard case .http(var timed) = c.events[1].payload else { return }
        timed.timings?.total = 9
        c.events[1].payload = .http(timed)
        #expect(CassetteDiff.differences(a, c).isEmpty)
        #expect(
            CassetteDiff.differences(a, c, includeTimings: true).map(\.description) == [
                "event 1: timings.total: 0.005 in the first, 9 in the second"
            ])
    }

    @Test func lintAcceptsCanonicalFilesAndFindsProblems() async throws {
        let cassette = await Fixtures.record()
        #expect(CassetteLint.check(bytes: cassette.canonicalBytes, path: "ok.json").isEmpty)
        // Not canonical: another indentation.
        let reindented = cassette.canonicalText.replacing("\n  \"curve\"", with: "\n    \"curve\"")
        let problems = CassetteLint.check(bytes: Array(reindented.utf8), path: "x.json")
        #expect(
            problems.map(\.description) == [
                "x.json: line 7: not in canonical form (two-space indent, sorted keys, `\"name\": value`, trailing newline); `cassette lint --fix` rewrites it"
            ])
        // A placeholder missing from the manifest.
        var redacted = Redactor(fields: ["pin"]).redact(cassette)
        redacted.redactions = []
        let found = CassetteLint.check(bytes: redacted.canonicalBytes, path: "y.json").map(\.message)
        #expect(found == ["placeholder {{pin}} is used but not listed in `redactions`"])
        // A json view that does not match the text: the reader refuses it, naming what to edit.
        let text = cassette.canonicalText.replacing(
            "\"mpinAuthServerURL\": \"/rps\"", with: "\"mpinAuthServerURL\": \"/other\"")
        #expect(
            CassetteLint.check(bytes: Array(text.utf8), path: "y.json").map(\.message)
                == [
                    "event 1, field response.body.json: does not match the body's `text`, which is what is replayed (the bytes are the truth, "
                        + "`json` is only a view of them): to change the body, edit `text`, then run `mpin-workbench cassette lint --fix FILE`, "
                        + "which writes `json` again from `text`; an edit to `json` alone is undone by --fix"
                ])
        // Reading errors come out as one problem with their place.
        #expect(
            CassetteLint.check(bytes: Array("{\"formatVersion\": 1,}".utf8), path: "z.json").map(\.description)
                == ["z.json: line 1, column 21: not valid JSON: expected a member name in double quotes, found '}'"])
        #expect(CassetteLint.check(path: "/nonexistent.json").map(\.description) == ["/nonexistent.json: no such file"])
    }
}
