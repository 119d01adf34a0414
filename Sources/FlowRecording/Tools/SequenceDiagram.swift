import CommonFormats

/// `cassette diagram`: the flow as a Mermaid `sequenceDiagram`, as an SVG drawing
/// (`SequenceDiagram+SVG.swift`) and as a self-contained HTML page (`SequenceDiagram+Page.swift`).
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
        /// What the row draws.
        public enum Kind: Sendable, Hashable {
            /// An HTTP request and its response: two arrows.
            case exchange
            /// An HTTP request that got no response: one arrow that ends in a cross.
            case transportError
            /// An API call: a note over the caller.
            case call
            /// A crypto step: a note over the caller.
            case crypto
        }

        /// The event's index in the cassette.
        public var index: Int
        public var step: ScenarioStep?
        public var kind: Kind
        public var from: Participant
        public var to: Participant
        /// The label: `GET /rps/user` (the path only), `authenticate()`, `crypto client1`.
        public var message: String
        /// The status, `transport error: kind`, or a call's status and the user's state afterwards.
        public var result: String
        /// The message with nothing left out: the method and the whole URL, a call's arguments, a
        /// crypto step's inputs and outputs.
        public var fullMessage: String
    }

    /// The participants the rows use, in the map's order.
    public func participants(_ rows: [Row]) -> [Participant] {
        var used = Set<String>()
        for row in rows {
            used.insert(row.from.id)
            used.insert(row.to.id)
        }
        return map.ordered.filter { used.contains($0.id) }
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
                let result =
                    exchange.response.map { "\($0.status)" } ?? "transport error: \(exchange.error?.kind ?? "?")"
                return Row(
                    index: index, step: event.step, kind: exchange.response == nil ? .transportError : .exchange,
                    from: from, to: map.participant(forURL: exchange.request.url),
                    message: "\(exchange.request.method) \(path)", result: result,
                    fullMessage: "\(exchange.request.method) \(exchange.request.url)")
            case .call(let call):
                let arguments = call.arguments.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
                return Row(
                    index: index, step: event.step, kind: .call, from: from, to: from, message: "\(call.name)()",
                    result: call.status.code + (call.userState.map { ", \($0)" } ?? ""),
                    fullMessage: "\(call.name)(\(arguments))")
            case .crypto(let step):
                let inputs = step.inputs.map(\.description).joined(separator: " ")
                let outputs = step.outputs.map(\.description).joined(separator: " ")
                return Row(
                    index: index, step: event.step, kind: .crypto, from: from, to: from,
                    message: "crypto \(step.primitive)", result: "",
                    fullMessage: "crypto \(step.primitive) [\(inputs)] → [\(outputs)]")
            case .random, .clock:
                return nil
            }
        }
    }

    /// The Mermaid text.
    public func mermaid(_ cassette: Cassette) -> String {
        let rows = rows(cassette)
        let participants = participants(rows)
        var lines = ["sequenceDiagram"]
        for participant in participants { lines.append("    participant \(participant.id) as \(participant.name)") }
        let span =
            participants.count > 1
            ? "\(participants.first!.id),\(participants.last!.id)" : (participants.first?.id ?? "client")
        var step: ScenarioStep?
        for row in rows {
            if row.step != step, let next = row.step {
                lines.append("    Note over \(span): \(Self.escape("\(next.index). \(next.name)"))")
            }
            step = row.step
            if row.from == row.to {
                let text = row.result.isEmpty ? row.message : "\(row.message) → \(row.result)"
                lines.append("    Note over \(row.from.id): \(Self.escape(text))")
            } else if row.kind == .transportError {
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
}
