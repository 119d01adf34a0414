import CommonFormats
import OrderedJSON

/// What replay mode `context` compares beyond the harness's key (docs/cassettes.md, "Context
/// replay"), and how a difference is traced back to the recorded answer it came from.
///
/// The key (method, URL with its path and query, request context) picks the recorded exchange.
/// Its request body is then compared with the one sent: JSON by meaning (member order and
/// spelling aside), every member's value but those of the mode's `fresh` members, which another
/// run draws afresh (the harness's pass-1 `U` and `UT`, pass-2 `V`): of those, the kind and, for
/// strings, the length (a G1 point is 130 hex characters whatever it is). A body that is not JSON
/// is compared byte for byte. A request whose key the recording lacks is compared with the
/// nearest recorded request of its context (or of its URL), path segment by segment and query
/// item by query item.
///
/// A value the re-run sent where the recording has another usually comes from an answer the
/// re-run was served: `answers(holding:in:)` names the recorded responses that hold it, so that a
/// recorded answer changed after recording is reported at the request that carried its value, as
/// strict mode names the response behind a crypto input.
enum ContextComparison {
    typealias Request = CassetteEvent.HTTPExchange.Request

    /// The shortest value looked for in the recorded answers (an access number's check digits
    /// aside, the values the harness's requests carry from answers are longer).
    static let shortestTracedValue = 4

    /// The differences between a recorded request body and the one sent, one line each, and the
    /// values the re-run sent where the recording holds others.
    static func body(_ expected: [UInt8], _ actual: [UInt8], fresh: Set<String>) -> (
        lines: [String], sent: [String]
    ) {
        guard let e = try? JSONParser.parse(expected), let a = try? JSONParser.parse(actual) else {
            guard expected != actual else { return ([], []) }
            return (["body: " + EventComparison.firstByteDifference(expected, actual)], [])
        }
        let differences = JSONDiff.differences(e.removing(fields: fresh), a.removing(fields: fresh), path: "body $")
        var sent: [String] = []
        for difference in differences {
            switch difference.change {
            case .changed(_, let value), .added(let value): sent += strings(in: value)
            case .missing: break
            }
        }
        return (differences.map(\.description) + shape(e, a, fresh: fresh, path: "body $"), sent)
    }

    /// The fresh members' kinds and string lengths, wherever both bodies have the object that holds them.
    static func shape(_ expected: JSONValue, _ actual: JSONValue, fresh: Set<String>, path: String) -> [String] {
        guard !fresh.isEmpty else { return [] }
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            var out: [String] = []
            let theirs = actual.uniqueMembers, mine = expected.uniqueMembers
            for member in e {
                let child = path + "." + member.name
                guard let other = theirs[member.name] else {
                    if fresh.contains(member.name) {
                        out.append("\(child): missing (expected \(kind(member.value)), fresh randomness)")
                    }
                    continue
                }
                if fresh.contains(member.name) {
                    if kind(member.value) != kind(other) {
                        out.append(
                            "\(child): expected \(kind(member.value)) (fresh randomness, its value not compared), got \(kind(other))"
                        )
                    }
                } else {
                    out += shape(member.value, other, fresh: fresh, path: child)
                }
            }
            for member in a where fresh.contains(member.name) && mine[member.name] == nil {
                out.append("\(path).\(member.name): unexpected (got \(kind(member.value)))")
            }
            return out
        case (.array(let e), .array(let a)):
            return zip(e, a).enumerated().flatMap { position, pair in
                shape(pair.0, pair.1, fresh: fresh, path: path + "[\(position)]")
            }
        default:
            return []
        }
    }

    /// A value's kind as the shape compares it: `a string of 130 characters`, `a number`, ...
    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string(let text): "a string of \(text.count) character\(text.count == 1 ? "" : "s")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The strings and numbers of a JSON value, as they read.
    static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .number(let literal): [literal]
        case .array(let items): items.flatMap(strings)
        case .object(let members): members.flatMap { strings(in: $0.value) }
        default: []
        }
    }

    /// The recorded request nearest to one whose key the recording lacks: of the same method, in
    /// the same context or to the same URL, with the fewest differing path segments, query items
    /// and context parts; an unused one before a used one, the earlier before the later.
    static func nearest(
        to request: Request, context: String, in cassette: Cassette, used: Set<Int>
    ) -> (index: Int, lines: [String], sent: [String])? {
        var best: (score: Int, index: Int, lines: [String], sent: [String])?
        for (index, exchange) in cassette.httpExchanges where exchange.request.method == request.method {
            let recordedContext = exchange.context ?? ""
            guard recordedContext == context || exchange.request.url == request.url else { continue }
            var (lines, sent) = url(exchange.request.url, request.url)
            if recordedContext != context {
                lines.append("context: expected \"\(recordedContext)\", got \"\(context)\"")
                sent += parts(of: context).filter { !parts(of: recordedContext).contains($0) }
            }
            let score = lines.count * 2 + (used.contains(index) ? 1 : 0)
            if best == nil || score < best!.score { best = (score, index, lines, sent) }
        }
        return best.map { ($0.index, $0.lines, $0.sent) }
    }

    /// The harness's context split at its separators (`testUser-1234-4241703@testAuthenticateAN1`).
    static func parts(of context: String) -> [String] {
        context.split { $0 == "-" || $0 == "@" }.map(String.init)
    }

    /// The differences between a recorded URL and the one sent: the origin, each path segment and
    /// each query item (by name, in order), with the values sent where the recording has others.
    static func url(_ expected: String, _ actual: String) -> (lines: [String], sent: [String]) {
        var lines: [String] = [], sent: [String] = []
        if URLText.origin(of: expected) != URLText.origin(of: actual) {
            lines.append("url origin: expected \(URLText.origin(of: expected)), got \(URLText.origin(of: actual))")
        }
        let e = URLText.path(expected).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let a = URLText.path(actual).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for position in 0..<max(e.count, a.count) {
            let x = position < e.count ? e[position] : nil, y = position < a.count ? a[position] : nil
            guard x != y else { continue }
            lines.append(
                "url path segment \(position): expected \(x.map(brief) ?? "nothing"), got \(y.map(brief) ?? "nothing")")
            if let y { sent.append(y) }
        }
        let eq = URLText.queryItems(expected), aq = URLText.queryItems(actual)
        var names: [String] = []
        for (name, _) in eq + aq where !names.contains(name) { names.append(name) }
        for name in names {
            let x = eq.filter { $0.0 == name }.map(\.1), y = aq.filter { $0.0 == name }.map(\.1)
            guard x != y else { continue }
            let show = { (values: [String]) in values.isEmpty ? "nothing" : values.map(brief).joined(separator: ", ") }
            lines.append("url query \(name): expected \(show(x)), got \(show(y))")
            sent += y.filter { !x.contains($0) }
        }
        return (lines, sent)
    }

    static func brief(_ text: String) -> String { "\"" + TextShortening.middle(text, limit: 40) + "\"" }

    /// For each value sent where the recording has another, the recorded responses that hold it as
    /// a whole token, one line each (the first such response per value): the re-run took the value
    /// from that answer, which does not hold what the recorded request carries.
    static func answers(holding values: [String], in cassette: Cassette) -> [String] {
        var out: [String] = [], seen: Set<String> = []
        for value in values where value.count >= shortestTracedValue && seen.insert(value).inserted {
            for (index, exchange) in cassette.httpExchanges {
                guard let response = exchange.response, holds(response.body, value) else { continue }
                out.append(
                    "the value sent, \(brief(value)), comes from the answer to \(exchange.request.method) "
                        + "\(URLText.path(exchange.request.url)) at \(EventSummary.place(index, cassette.events[index])), which "
                        + "holds it where the recorded request carries another: that answer was changed after recording (or the "
                        + "recorded request was)")
                break
            }
        }
        return out
    }

    /// Whether `bytes` hold `value` with no letter or digit right before or after it.
    static func holds(_ bytes: [UInt8], _ value: String) -> Bool {
        let needle = Array(value.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        func isWord(_ byte: UInt8) -> Bool {
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
        }
        var start = 0
        while start + needle.count <= bytes.count {
            if bytes[start] == needle[0], Array(bytes[start..<start + needle.count]) == needle,
                start == 0 || !isWord(bytes[start - 1]),
                start + needle.count == bytes.count || !isWord(bytes[start + needle.count])
            {
                return true
            }
            start += 1
        }
        return false
    }
}
