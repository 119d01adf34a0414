@testable import FlowRecording
import Testing

@Suite struct SequenceDiagramTests {
    /// A toy protocol's map: the recording library itself knows no protocol's services.
    static let toy = SequenceDiagram.ParticipantMap(rules: [
        ("/rps", .init(id: "rps", name: "RPS")), ("/dta2", .init(id: "dta2", name: "D-TA 2")),
    ])

    @Test func participantsComeFromTheMapsRulesAndTheRestGoesToOneServer() {
        #expect(Self.toy.participant(forURL: "http://h:8005/rps/pass1").id == "rps")
        #expect(Self.toy.participant(forURL: "http://h:8005/rps").id == "rps")
        #expect(Self.toy.participant(forURL: "http://h:8005/rpsx") == .server)
        #expect(Self.toy.ordered.map(\.id) == ["client", "browser", "rps", "dta2", "server"])
        #expect(SequenceDiagram.ParticipantMap.single.participant(forURL: "http://h/rps/pass1") == .server)
    }

    @Test func mermaidOfTheToyFlow() async {
        let text = SequenceDiagram(map: Self.toy).mermaid(await Fixtures.record())
        #expect(text == """
            sequenceDiagram
                participant client as Client (SDK)
                participant browser as Browser
                participant rps as RPS
                Note over client,rps: 0. settings
                client->>rps: GET /rps/clientSettings
                rps-->>client: 200
                Note over client,rps: 1. authenticate
                Note over client: crypto client1
                client->>rps: POST /rps/pass1
                rps-->>client: 200
                Note over client: crypto client2
                client->>rps: POST /rps/pass2
                rps-->>client: 200
                Note over client: authenticate() → OK, REGISTERED
                Note over client,rps: 2. browser polls
                browser->>rps: GET /rps/access
                rps-->>browser: 200
                Note over client: poll() → OK

            """)
    }

    @Test func transportErrorsAndEscaping() {
        var cassette = Fixtures.header()
        cassette.events = [
            CassetteEvent(step: .init(index: 0, name: "step #1; go"),
                          .http(.init(request: .init(method: "GET", url: "https://unreachable.example/dta2/x"),
                                      error: .init(kind: "hostNotFound", message: "no")))),
        ]
        let text = SequenceDiagram(map: Self.toy).mermaid(cassette)
        #expect(text.contains("Note over client,dta2: 0. step #35;1#59; go"))
        #expect(text.contains("client-xdta2: GET /dta2/x (transport error: hostNotFound)"))
    }

    @Test func htmlPageHasTheMermaidTextAndAPlainTable() async {
        let html = SequenceDiagram(map: Self.toy).html(await Fixtures.record(), title: "toy <flow>")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>toy &lt;flow&gt;</title>"))
        #expect(html.contains("<pre class=\"mermaid\">\nsequenceDiagram\n"))
        #expect(html.contains("client-&gt;&gt;rps: POST /rps/pass1"))
        #expect(html.contains("<tr><td>4</td><td>1. authenticate</td><td>Client (SDK)</td><td>RPS</td><td>POST /rps/pass1</td><td>200</td></tr>"))
        #expect(html.contains("<tr><td>8</td><td>2. browser polls</td><td>Browser</td><td>RPS</td><td>GET /rps/access</td><td>200</td></tr>"))
    }
}
