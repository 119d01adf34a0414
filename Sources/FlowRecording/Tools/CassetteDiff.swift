import OrderedJSON

/// `cassette diff`: every difference between two cassettes, JSON-aware for JSON bodies.
public enum CassetteDiff {
    /// How differences name the two cassettes.
    static let peers = ("the first", "the second")

    /// One difference: where (metadata field or event index and field) and what.
    public struct Difference: Sendable, Hashable, CustomStringConvertible {
        public var eventIndex: Int?
        public var detail: String
        public var description: String { (eventIndex.map { "event \($0): " } ?? "") + detail }
    }

    /// The differences between `a` and `b`, metadata first, then events by index. Live timings are
    /// left out unless `includeTimings` (they differ between any two live recordings).
    public static func differences(_ a: Cassette, _ b: Cassette, includeTimings: Bool = false) -> [Difference] {
        var out: [Difference] = []
        func metadata(_ cassette: Cassette) -> JSONValue {
            var copy = cassette
            copy.events = []
            return copy.jsonValue.removing(fields: ["events"])
        }
        out += JSONDiff.differences(metadata(a), metadata(b))
            .map {
                Difference(
                    detail: $0.description(first: peers.0, second: peers.1).replacing(
                        "$.", with: "", maxReplacements: 1))
            }
        for index in 0..<max(a.events.count, b.events.count) {
            guard index < a.events.count else {
                out.append(
                    .init(eventIndex: index, detail: "only in the second: \(EventSummary.line(b.events[index]))"))
                continue
            }
            guard index < b.events.count else {
                out.append(.init(eventIndex: index, detail: "only in the first: \(EventSummary.line(a.events[index]))"))
                continue
            }
            out += eventDifferences(a.events[index], b.events[index], includeTimings: includeTimings)
                .map { Difference(eventIndex: index, detail: $0) }
        }
        return out
    }

    static func eventDifferences(_ a: CassetteEvent, _ b: CassetteEvent, includeTimings: Bool) -> [String] {
        if a == b { return [] }
        if a.type != b.type {
            return [
                "\(a.type) in the first, \(b.type) in the second: \(EventSummary.line(a)) | \(EventSummary.line(b))"
            ]
        }
        var dropped: Set<String> = includeTimings ? [] : ["timings"]
        var bodies: [String] = []
        if case .http(let x) = a.payload, case .http(let y) = b.payload {
            dropped.formUnion(["request.body", "response.body"])
            bodies += EventComparison.bodyBytes(x.request.body, y.request.body, peers: peers).map { "request " + $0 }
            if let r = x.response, let s = y.response {
                bodies += EventComparison.bodyBytes(r.body, s.body, peers: peers).map { "response " + $0 }
            }
        }
        let lines = JSONDiff.differences(a.jsonValue.removing(fields: dropped), b.jsonValue.removing(fields: dropped))
            .map { $0.description(first: peers.0, second: peers.1).replacing("$.", with: "", maxReplacements: 1) }
        return lines + bodies
    }

    /// The report of `cassette diff`: the first difference, then all of them.
    public static func text(_ a: Cassette, _ b: Cassette, names: (String, String), includeTimings: Bool = false)
        -> String
    {
        let found = differences(a, b, includeTimings: includeTimings)
        guard let first = found.first else { return "\(names.0) and \(names.1): no differences\n" }
        var lines = [
            "\(names.0) and \(names.1): \(found.count) difference\(found.count == 1 ? "" : "s")",
            "first: \(first)",
        ]
        if let index = first.eventIndex {
            let event = index < a.events.count ? a.events[index] : b.events[index]
            lines.append("       at \(EventSummary.place(index, event))")
        }
        lines.append("all:")
        lines += found.map { "  \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
