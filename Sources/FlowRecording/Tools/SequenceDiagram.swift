/// `cassette diagram`: the flow as a Mermaid `sequenceDiagram` and as a standalone HTML page.
///
/// Participants: the client (events of actor `sdk`), the browser (actor `browser`), and the server
/// each request went to, told from the URL path (`ParticipantMap`). API calls are notes over the
/// caller, crypto steps short notes, scenario steps notes across all participants; random draws
/// and clock reads are left out.
public struct SequenceDiagram: Sendable {
    /// A participant of the diagram: its Mermaid id and display name.
    public struct Participant: Sendable, Hashable {
        public var id: String
        public var name: String
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
        public static let client = Participant(id: "client", name: "Client (SDK)")
        public static let browser = Participant(id: "browser", name: "Browser")
        /// Where a request goes that no rule of the map names.
        public static let server = Participant(id: "server", name: "server")
    }

    /// Which server a request goes to, from its URL path, and the order of the participants.
    ///
    /// Rules are tried in order; the first whose prefix is the path itself or a leading part of it
    /// followed by `/` names the participant. A request that matches no rule goes to `.server`.
    /// The recording library knows no protocol: the layer that does gives its own map (the
    /// Milagro services' map lives in the Scenarios library, `ParticipantMap.milagro`).
    public struct ParticipantMap: Sendable {
        public var rules: [(prefix: String, participant: Participant)]
        /// The order of participants in a diagram: the client and the browser first, then the
        /// servers in the order given (by default the order of their first rule), then `.server`.
        public var ordered: [Participant]

        public init(rules: [(prefix: String, participant: Participant)], serverOrder: [Participant] = []) {
            self.rules = rules
            var ordered: [Participant] = [.client, .browser]
            for participant in serverOrder + rules.map(\.participant) where !ordered.contains(participant) {
                ordered.append(participant)
            }
            if !ordered.contains(.server) { ordered.append(.server) }
            self.ordered = ordered
        }

        /// No rules: every request goes to one `server`.
        public static let single = ParticipantMap(rules: [])

        public func participant(forURL url: String) -> Participant {
            let path = URLText.path(url)
            for rule in rules where path == rule.prefix || path.hasPrefix(rule.prefix + "/") { return rule.participant }
            return .server
        }
    }

    /// One arrow or note of the flow, in order.
    public struct Row: Sendable, Hashable {
        public var index: Int
        public var step: ScenarioStep?
        public var from: Participant
        public var to: Participant
        public var message: String
        public var result: String
    }

    public var map: ParticipantMap

    public init(map: ParticipantMap = .single) {
        self.map = map
    }

    private func caller(_ event: CassetteEvent) -> Participant {
        event.actor == .browser ? .browser : .client
    }

    /// The rows of the flow: one per call, exchange and crypto step.
    public func rows(_ cassette: Cassette) -> [Row] {
        cassette.events.enumerated().compactMap { index, event in
            let from = caller(event)
            switch event.payload {
            case .http(let exchange):
                let path = URLText.path(exchange.request.url)
                let result = exchange.response.map { "\($0.status)" } ?? "transport error: \(exchange.error?.kind ?? "?")"
                return Row(index: index, step: event.step, from: from, to: map.participant(forURL: exchange.request.url),
                           message: "\(exchange.request.method) \(path)", result: result)
            case .call(let call):
                return Row(index: index, step: event.step, from: from, to: from, message: "\(call.name)()",
                           result: call.status.code + (call.userState.map { ", \($0)" } ?? ""))
            case .crypto(let step):
                return Row(index: index, step: event.step, from: from, to: from, message: "crypto \(step.primitive)", result: "")
            case .random, .clock:
                return nil
            }
        }
    }

    /// The Mermaid text.
    public func mermaid(_ cassette: Cassette) -> String {
        let rows = rows(cassette)
        var used = Set<String>()
        for row in rows { used.insert(row.from.id); used.insert(row.to.id) }
        let participants = map.ordered.filter { used.contains($0.id) }
        var lines = ["sequenceDiagram"]
        for participant in participants { lines.append("    participant \(participant.id) as \(participant.name)") }
        let span = participants.count > 1 ? "\(participants.first!.id),\(participants.last!.id)" : (participants.first?.id ?? "client")
        var step: ScenarioStep?
        for row in rows {
            if row.step != step, let next = row.step {
                lines.append("    Note over \(span): \(Self.escape("\(next.index). \(next.name)"))")
            }
            step = row.step
            if row.from == row.to {
                let text = row.result.isEmpty ? row.message : "\(row.message) → \(row.result)"
                lines.append("    Note over \(row.from.id): \(Self.escape(text))")
            } else if row.result.hasPrefix("transport error") {
                lines.append("    \(row.from.id)-x\(row.to.id): \(Self.escape(row.message + " (" + row.result + ")"))")
            } else {
                lines.append("    \(row.from.id)->>\(row.to.id): \(Self.escape(row.message))")
                lines.append("    \(row.to.id)-->>\(row.from.id): \(Self.escape(row.result))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid message text: one line; `#` and `;` as Mermaid entity codes.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "#": out += "#35;"
            case ";": out += "#59;"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// A standalone page: the Mermaid text (drawn when the Mermaid script can be loaded) and the
    /// same flow as a plain table that needs nothing else.
    public func html(_ cassette: Cassette, title: String) -> String {
        let rows = rows(cassette)
        var table = ""
        for row in rows {
            table += "<tr><td>\(row.index)</td><td>\(Self.html(row.step.map { "\($0.index). \($0.name)" } ?? ""))</td>"
                + "<td>\(Self.html(row.from.name))</td><td>\(Self.html(row.to.name))</td>"
                + "<td>\(Self.html(row.message))</td><td>\(Self.html(row.result))</td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(Self.html(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em; }
            table { border-collapse: collapse; }
            th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: left; font-size: 0.9em; }
            th { background: #eee; }
            pre.mermaid { background: #fafafa; }
            </style>
            </head>
            <body>
            <h1>\(Self.html(title))</h1>
            <p>Scenario \(Self.html(cassette.scenario.name)), backend \(Self.html(cassette.backend.url)) \
            (\(Self.html(cassette.backend.flavour))), \(cassette.events.count) events.</p>
            <h2>Sequence diagram</h2>
            <pre class="mermaid">
            \(Self.html(mermaid(cassette)))</pre>
            <p><small>The diagram is drawn by Mermaid when the page can load it; the table below needs nothing.</small></p>
            <h2>Flow</h2>
            <table>
            <tr><th>#</th><th>step</th><th>from</th><th>to</th><th>message</th><th>result</th></tr>
            \(table)</table>
            <script type="module">
            import mermaid from "https://cdn.jsdelivr.net/npm/mermaid@11/dist/mermaid.esm.min.mjs";
            mermaid.initialize({ startOnLoad: true });
            </script>
            </body>
            </html>

            """
    }

    static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
