import Testing

@testable import FlowRecording

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
        #expect(
            text == """
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
            CassetteEvent(
                step: .init(index: 0, name: "step #1; go"),
                .http(
                    .init(
                        request: .init(method: "GET", url: "https://unreachable.example/dta2/x"),
                        error: .init(kind: "hostNotFound", message: "no"))))
        ]
        let text = SequenceDiagram(map: Self.toy).mermaid(cassette)
        #expect(text.contains("Note over client,dta2: 0. step #35;1#59; go"))
        #expect(text.contains("client-xdta2: GET /dta2/x (transport error: hostNotFound)"))
    }

    @Test func htmlPageHasTheDrawingATableAndTheMermaidText() async {
        let html = SequenceDiagram(map: Self.toy).html(await Fixtures.record(), title: "toy <flow>")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>toy &lt;flow&gt;</title>"))
        #expect(html.contains("<svg class=\"sequence\""))
        #expect(
            html.contains(
                "<tr id=\"event-4\"><td>4</td><td>1. authenticate</td><td>Client (SDK)</td><td>RPS</td>"
                    + "<td class=\"full\">POST http://127.0.0.1:8005/rps/pass1</td><td>200</td>"))
        #expect(html.contains("<tr id=\"event-8\"><td>8</td><td>2. browser polls</td><td>Browser</td><td>RPS</td>"))
        // The Mermaid text is kept for pasting into Markdown, escaped.
        #expect(html.contains("<pre>sequenceDiagram\n"))
        #expect(html.contains("client-&gt;&gt;rps: POST /rps/pass1"))
    }

    /// Issue 27: the page loaded Mermaid from a CDN, so offline it showed raw text.
    @Test func thePageLoadsNothingFromElsewhere() async throws {
        let cassette = await Fixtures.record()
        var html = SequenceDiagram(map: Self.toy).html(cassette, title: "toy")
        // The cassette's own URLs are shown (escaped) as text; nothing else may name a web address.
        var urls = [cassette.backend.url]
        for event in cassette.events {
            if case .http(let exchange) = event.payload { urls.append(exchange.request.url) }
        }
        for url in urls.sorted(by: { $0.count > $1.count }) {
            html = html.replacingOccurrences(of: XMLText.escaped(url, attribute: false), with: "")
        }
        for pattern in [
            "http://", "https://", "<script", "src=", "<link", "@import", "url(", "<iframe", "<object", "<embed",
        ] {
            #expect(!html.lowercased().contains(pattern), "\(pattern)")
        }
    }

    /// A cassette whose text is markup: every value of it is escaped, in the drawing and the table.
    static func hostile() -> Cassette {
        var cassette = Fixtures.header(name: "x<script>alert(1)</script>")
        let step = ScenarioStep(index: 0, name: "<script>step</script> & co")
        cassette.events = [
            CassetteEvent(
                step: step,
                .http(
                    .init(
                        request: .init(
                            method: "POST", url: "http://127.0.0.1:8005/rps/<script>?a=1&b=\"2\"",
                            headers: ["X-Evil": "<script>alert('h')</script> & more"],
                            body: Array("<b>body & text</b>".utf8)),
                        response: .init(
                            status: 200, headers: ["Set-Cookie": "a=<i>&amp;"],
                            body: Array("<script>reply</script>&".utf8))))),
            CassetteEvent(
                step: step,
                .call(
                    .init(
                        name: "<call>", arguments: [.init("pin", "<1&2>")],
                        status: .init(code: "OK & <b>", message: "</td><script>"), userState: "<state>"))),
            CassetteEvent(
                actor: .browser, step: step, .crypto(.init(primitive: "<prim>", inputs: [.init("in", "<x>&")]))),
        ]
        return cassette
    }

    @Test func everythingFromTheCassetteIsEscaped() {
        let cassette = Self.hostile()
        let diagram = SequenceDiagram(map: Self.toy)
        for text in [
            diagram.html(cassette, title: cassette.scenario.name), diagram.svg(cassette, title: cassette.scenario.name),
        ] {
            #expect(!text.contains("<script"))
            #expect(
                !text.contains("<b>") && !text.contains("<i>") && !text.contains("<call>") && !text.contains("<prim>"))
            #expect(!text.contains("& ") && !text.contains("&2") && !text.contains("&b="), "a bare ampersand")
            #expect(text.contains("&lt;script&gt;step&lt;/script&gt; &amp; co"))
            #expect(text.contains("POST /rps/&lt;script&gt;"))
        }
        let html = diagram.html(cassette, title: cassette.scenario.name)
        // The table shows the headers and bodies in full, escaped.
        #expect(html.contains("&gt; X-Evil: &lt;script&gt;alert(&apos;h&apos;)&lt;/script&gt; &amp; more"))
        #expect(html.contains("&lt;b&gt;body &amp; text&lt;/b&gt;"))
        #expect(html.contains("&lt; Set-Cookie: a=&lt;i&gt;&amp;amp;"))
        #expect(html.contains("&lt;script&gt;reply&lt;/script&gt;&amp;"))
        #expect(html.contains("message: &lt;/td&gt;&lt;script&gt;"))
        #expect(html.contains("POST http://127.0.0.1:8005/rps/&lt;script&gt;?a=1&amp;b=&quot;2&quot;"))
    }

    static let mpinID =
        "7b226d6f62696c65223a20312c2022697373756564223a2022323032362d30312d30312030303a30303a30302e303030303030222c2022757365724944223a2022626f62227d"

    /// Issue 27: labels with an M-Pin ID in hex ran across the whole page.
    @Test func longHexIsShortenedInLabelsAndShownInFullOnHoverAndInTheTable() {
        var cassette = Fixtures.header()
        let url = "http://127.0.0.1:8005/rps/signature/\(Self.mpinID)?regOTT=\(String(repeating: "ab", count: 16))"
        cassette.events = [
            CassetteEvent(
                step: .init(index: 3, name: "confirm \(Self.mpinID)"),
                .http(.init(request: .init(method: "GET", url: url), response: .init(status: 200))))
        ]
        let diagram = SequenceDiagram(map: Self.toy)
        let svg = diagram.svg(cassette, title: "t")
        #expect(svg.contains(">GET /rps/signature/7b226d6f…227d</text>"))
        #expect(svg.contains(">3. confirm 7b226d6f…227d</text>"))
        #expect(svg.contains("<title>#0 GET \(url)</title>"))
        #expect(svg.contains("<title>3. confirm \(Self.mpinID)</title>"))
        #expect(svg.components(separatedBy: Self.mpinID).count - 1 == 3, "only in the titles")
        let html = diagram.html(cassette, title: "t")
        #expect(html.contains("<td class=\"full\">GET \(url)</td>"))
        #expect(html.contains("<a href=\"#event-0\"><g><title>#0 GET \(url)</title>"))
        // The Mermaid text keeps the whole path, as before.
        #expect(diagram.mermaid(cassette).contains("client->>rps: GET /rps/signature/\(Self.mpinID)\n"))
    }

    @Test func labelsShortenHexRunsOfMoreThan16DigitsAndCapTheLength() {
        #expect(DiagramLabel.short("/a/0123456789abcdef") == "/a/0123456789abcdef")
        #expect(DiagramLabel.short("/a/0123456789abcdef0") == "/a/01234567…def0")
        #expect(
            DiagramLabel.short("x 0123456789ABCDEF0123 y ffffffffffffffffff/1") == "x 01234567…0123 y ffffffff…ffff/1")
        #expect(DiagramLabel.short("GET /rps/pass1") == "GET /rps/pass1")
        let long = String(repeating: "word ", count: 40)
        #expect(DiagramLabel.short(long).count == DiagramLabel.characterLimit)
        #expect(DiagramLabel.short(long).hasSuffix("…"))
    }

    @Test func theDrawingHasOneArrowPerRequestAndResponseAndANotePerCallAndCryptoStep() async {
        let cassette = await Fixtures.record()
        let svg = SequenceDiagram(map: Self.toy).svg(cassette, title: "toy")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sequence\""))
        #expect(!svg.contains("<a href"), "a file of its own has no table to link to")
        func count(_ text: String) -> Int { svg.components(separatedBy: text).count - 1 }
        #expect(count("<line class=\"request\"") == 4)
        #expect(count("<line class=\"response\"") == 4)
        #expect(count("<rect class=\"note step\"") == 3)
        #expect(count("<rect class=\"note call\"") == 2)
        #expect(count("<rect class=\"note crypto\"") == 2)
        // Participants: top and bottom boxes for the client, the browser and the RPS, in that order.
        #expect(count("<rect class=\"actor\"") == 6)
        let names = ["Client (SDK)", "Browser", "RPS"].map { svg.range(of: ">\($0)</text>")!.lowerBound }
        #expect(names == names.sorted())
        // Requests in order, each answered before the next.
        let order = ["GET /rps/clientSettings", "POST /rps/pass1", "POST /rps/pass2", "GET /rps/access"]
            .map { svg.range(of: ">\($0)</text>")!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test func aTransportErrorIsOneArrowEndingInACrossAndAnEmptyCassetteStillDraws() {
        var cassette = Fixtures.header()
        cassette.events = [
            CassetteEvent(
                .http(
                    .init(
                        request: .init(method: "GET", url: "http://127.0.0.1:1/dta2/x"),
                        error: .init(kind: "connectionRefused", message: "no"))))
        ]
        let svg = SequenceDiagram(map: Self.toy).svg(cassette, title: "t")
        #expect(svg.contains("<line class=\"error\""))
        #expect(svg.contains("<path class=\"cross\""))
        #expect(svg.contains(">GET /dta2/x (transport error: connectionRefused)</text>"))
        #expect(!svg.contains("<line class=\"response\""))
        let empty = SequenceDiagram(map: Self.toy).svg(Fixtures.header(), title: "t")
        #expect(empty.contains(">Client (SDK)</text>") && empty.hasSuffix("</svg>\n"))
    }
}
