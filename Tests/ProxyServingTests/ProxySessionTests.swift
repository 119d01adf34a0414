import FlowRecording
import MilagroRecording
import ProtocolChecks
import ProxyServing
import Scenarios
import TestSupport
import Testing

/// The record-again hint of a proxy's cassette points at the upstream the proxy forwarded to (its
/// own port is closed once the cassette is written); the upstream round-trips through the file, and
/// a cassette without one is written as before.
@Suite struct ProxyRerecordHintTests {

    @Test func theHintNamesTheUpstream() throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let header = ProxySession.header(
            baseURL: "http://127.0.0.1:40001", name: "phone", script: script, seed: "s1",
            upstream: "http://127.0.0.1:8005", tool: WorkbenchVersion.tool)
        let hint = RerecordHint.command(for: header, path: "phone.json")
        #expect(hint.contains("--backend http://127.0.0.1:8005"), "\(hint)")
        #expect(!hint.contains("40001"), "\(hint)")
        #expect(hint.contains("--seed s1") && hint.hasSuffix("--out phone.json"), "\(hint)")
        let read = try Cassette(jsonValue: header.jsonValue)
        #expect(read.backend.upstream == "http://127.0.0.1:8005")
        var plain = header
        plain.backend.upstream = nil
        #expect(!plain.canonicalText.contains("upstream"))
        #expect(RerecordHint.command(for: plain, path: nil).contains("--backend http://127.0.0.1:40001"))
    }
}

/// What the session says when it starts and at the end: the banner names the proxy's URL, the
/// upstream, each route and the file; the route hint names each origin the client talked to around
/// the proxy, and nothing when there is none.
@Suite struct ProxySessionTextTests {
    @Test func theHintNamesEachMissedOrigin() {
        let missed = FlowCheckSummary.UnseenOrigin(
            origin: "http://127.0.0.1:8001", settings: ["certivoxURL"], settingsIndex: 0, certainExchanges: 1,
            possibleExchanges: 0)
        let unused = FlowCheckSummary.UnseenOrigin(
            origin: "http://127.0.0.1:8002", settings: ["x"], settingsIndex: 0, certainExchanges: 0,
            possibleExchanges: 0)
        #expect(ProxySession.routeHint([]) == nil)
        #expect(ProxySession.routeHint([unused]) == nil)
        #expect(
            ProxySession.routeHint([missed, unused])
                == "the client talked to http://127.0.0.1:8001 around the proxy; to record it too, add "
                + "--route /upstream2=http://127.0.0.1:8001")
    }

    @Test func aHeaderWithoutAScriptComparesByMeaning() {
        let header = ProxySession.header(
            baseURL: "http://127.0.0.1:40001", name: "phone", script: nil, seed: nil, upstream: "http://127.0.0.1:8005",
            tool: WorkbenchVersion.tool)
        #expect(header.replayMode == .json)
        #expect(header.scenario.name == "phone")
        #expect(header.backend.url == "http://127.0.0.1:40001")
        #expect(header.backend.upstream == "http://127.0.0.1:8005")
    }
}
