@testable import FlowRecording
import Testing

@Suite struct SequenceDiagramTests {
    @Test func participantsComeFromTheURLPath() {
        let map = SequenceDiagram.ParticipantMap.standard
        #expect(map.participant(forURL: "http://h:8005/rps/pass1") == .rps)
        #expect(map.participant(forURL: "http://h:8005/rps") == .rps)
        #expect(map.participant(forURL: "http://h/dta2/clientSecret?app_id=1") == .dta2)
        #expect(map.participant(forURL: "http://h:8001/clientSecret?x=1") == .dta1)
        #expect(map.participant(forURL: "http://h/dta/timePermit") == .dta1)
        #expect(map.participant(forURL: "http://h:8005/mpinAuthenticate") == .rpa)
        #expect(map.participant(forURL: "http://h:8005/logout") == .rpa)
        #expect(map.participant(forURL: "http://h:8005/rpsx") == .server)
        #expect(map.participant(forURL: "http://h:8005/") == .server)
    }

    @Test func mermaidOfTheToyFlow() async {
        let text = SequenceDiagram().mermaid(await Fixtures.record())
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
        let text = SequenceDiagram().mermaid(cassette)
        #expect(text.contains("Note over client,dta2: 0. step #35;1#59; go"))
        #expect(text.contains("client-xdta2: GET /dta2/x (transport error: hostNotFound)"))
    }

    @Test func htmlPageHasTheMermaidTextAndAPlainTable() async {
        let html = SequenceDiagram().html(await Fixtures.record(), title: "toy <flow>")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>toy &lt;flow&gt;</title>"))
        #expect(html.contains("<pre class=\"mermaid\">\nsequenceDiagram\n"))
        #expect(html.contains("client-&gt;&gt;rps: POST /rps/pass1"))
        #expect(html.contains("<tr><td>4</td><td>1. authenticate</td><td>Client (SDK)</td><td>RPS</td><td>POST /rps/pass1</td><td>200</td></tr>"))
        #expect(html.contains("<tr><td>8</td><td>2. browser polls</td><td>Browser</td><td>RPS</td><td>GET /rps/access</td><td>200</td></tr>"))
    }
}
