import CommonFormats
import OrderedJSON
import SDKSeams
import Synchronization

/// Answers HTTP requests with a cassette's recorded responses: the engine of
/// `mpin-workbench serve --cassette`, which lets an SDK of another platform (iOS, Android, JS) run
/// a recorded flow against the backend answers of the recording.
///
/// Matching is by method and path; the query and the body are not compared (another client's
/// requests carry its own randomness), but a request body that differs from the recorded one is
/// noted in the log line. Two orders:
/// * `.route` (the default): per method and path, the recorded exchanges are served in their
///   recorded order. Once a route's exchanges are used up, its last one is served again and the
///   answer says it is a repeat, so a polling loop that polls more often than the recording keeps
///   getting the final answer instead of an error.
/// * `.sequential`: every request must be the next recorded exchange; no repeats.
///
/// A request that matches nothing is a *miss*: it is answered 404 with a JSON body naming the
/// request, what was expected, and the closest recorded request. A recorded transport error is
/// answered 502 with the recorded error. The recorded backend origin in response bodies and headers
/// (absolute URLs) is replaced by the origin the server listens on.
///
/// Every answer and the `summary` say what was served, repeated, missed and left unserved; the
/// playback passes when nothing was missed and every recorded exchange was served.
package final class CassettePlayback: Sendable {
    /// The path of the playback's status (`GET`), which `cassette serve` answers itself.
    package static let statusPath = "/__workbench/playback"
    /// The path that starts the playback again (`POST`).
    package static let resetPath = "/__workbench/playback/reset"

    /// The order in which recorded exchanges are served.
    package enum Order: String, Sendable, CaseIterable {
        case route
        case sequential
    }

    /// The actors whose exchanges are served unless told otherwise: the operator's own requests
    /// (`admin`: revocation, the mailbox) are not a client's.
    package static let defaultActors: Set<EventActor> = [.sdk, .browser, .device]

    /// One recorded exchange on offer.
    struct Entry: Sendable {
        var eventIndex: Int
        var actor: EventActor
        var step: ScenarioStep?
        var method: String
        var path: String
        var exchange: CassetteEvent.HTTPExchange

        var route: String { CassettePlayback.route(method, path) }
        /// `event 5 (sdk, step 3 "…")`.
        var place: String {
            "event \(eventIndex) (\(actor)" + (step.map { ", \($0)" } ?? "") + ")"
        }
        var label: String { "\(place): \(method) \(path)" }
    }

    /// The answer to one request.
    package struct Answer: Sendable, Hashable {
        package enum Kind: String, Sendable, Hashable {
            /// A recorded response, served for the first time.
            case recorded
            /// A route's last recorded response again, its others being used up.
            case repeated
            /// The recorded exchange ended in a transport error: answered 502.
            case transportError
            /// Nothing recorded matches: answered 404.
            case miss
        }

        package var kind: Kind
        package var status: Int
        package var headers: HTTPHeaders
        package var body: [UInt8]
        /// The recorded event that was served (nil for a miss).
        package var eventIndex: Int?
        /// One line for the server's log.
        package var log: String

        /// The answer as a response (what the listening server sends).
        package var response: HTTPResponse { HTTPResponse(status: status, headers: headers, body: body) }
    }

    /// What the playback has done so far.
    package struct Summary: Sendable, Hashable {
        /// Recorded exchanges on offer.
        package var offered: Int
        /// Recorded exchanges served at least once.
        package var served: Int
        package var repeats: Int
        /// One line per request that matched nothing, the first `CassettePlayback.maximumListedMisses`.
        package var misses: [String]
        /// Requests that matched nothing beyond the listed ones (a client can send any number).
        package var unlistedMisses: Int = 0
        /// One line per recorded exchange never served.
        package var unserved: [String]

        /// Nothing missed and everything served.
        package var passed: Bool { misses.isEmpty && unlistedMisses == 0 && unserved.isEmpty }

        /// Every request that matched nothing, listed or not.
        package var missCount: Int { misses.count + unlistedMisses }

        /// Several lines: counts, then the misses and the unserved exchanges.
        package var text: String {
            var lines = [
                "served \(served) of \(offered) recorded exchanges, \(repeats) repeat\(repeats == 1 ? "" : "s"), "
                    + "\(missCount) unmatched request\(missCount == 1 ? "" : "s")"
            ]
            if !misses.isEmpty {
                lines.append("requests that matched nothing:")
                lines += misses.map { "  " + $0 }
                if unlistedMisses > 0 { lines.append("  … and \(unlistedMisses) more") }
            }
            if !unserved.isEmpty {
                lines.append("recorded exchanges never asked for:")
                lines += unserved.map { "  " + $0 }
            }
            return lines.joined(separator: "\n")
        }
    }

    private struct State {
        /// `.sequential`: the next position in `entries`.
        var cursor = 0
        /// `.route`: per route, the next position in `routes[route]`.
        var routeCursors: [String: Int] = [:]
        var served: Set<Int> = []
        var repeats = 0
        var misses: [String] = []
        var unlistedMisses = 0
    }

    /// The most misses the summary lists one by one; later ones are counted only, so a client that
    /// sends requests without end cannot grow the server's memory without end.
    package static let maximumListedMisses = 1_000

    /// The cassette's name in messages (its file, when known).
    package let name: String
    package let order: Order
    private let entries: [Entry]
    private let routes: [String: [Int]]
    /// `scheme://host:port` of the backend the cassette was recorded against.
    package let recordedOrigin: String
    private let servedOrigin: String
    private let state = Mutex(State())

    /// - Parameters:
    ///   - cassette: the recording, with its placeholders filled in (`Redactor.restore`).
    ///   - name: how messages name it (its file).
    ///   - order: route (method + path, in order, repeating the last) or sequential.
    ///   - actors: whose exchanges to serve.
    ///   - servedOrigin: `http://host:port` the clients reach; replaces the recorded backend origin
    ///     in response bodies and headers (nil: leave them as recorded).
    package init(
        cassette: Cassette, name: String, order: Order = .route,
        actors: Set<EventActor> = CassettePlayback.defaultActors,
        servedOrigin: String? = nil
    ) {
        self.name = name
        self.order = order
        var entries: [Entry] = []
        for (index, event) in cassette.events.enumerated() where actors.contains(event.actor) {
            guard case .http(let exchange) = event.payload, exchange.response != nil || exchange.error != nil else {
                continue
            }
            entries.append(
                Entry(
                    eventIndex: index, actor: event.actor, step: event.step,
                    method: exchange.request.method.uppercased(),
                    path: URLText.path(exchange.request.url), exchange: exchange))
        }
        self.entries = entries
        var routes: [String: [Int]] = [:]
        for (position, entry) in entries.enumerated() { routes[entry.route, default: []].append(position) }
        self.routes = routes
        self.recordedOrigin = URLText.origin(of: cassette.backend.url)
        self.servedOrigin = servedOrigin ?? self.recordedOrigin
    }

    /// How many recorded exchanges are on offer.
    package var offered: Int { entries.count }

    /// Whether every recorded exchange has been served.
    package var isComplete: Bool { state.withLock { $0.served.count == entries.count } }

    /// The recorded routes, `METHOD /path`, in order of first appearance.
    package var routeList: [String] {
        var seen: Set<String> = []
        return entries.compactMap { seen.insert($0.route).inserted ? $0.route : nil }
    }

    /// Answers one request: `target` is the request target as received (`/rps/user?x=1`) or an
    /// absolute URL.
    package func answer(method: String, target: String, body: [UInt8] = []) -> Answer {
        let method = method.uppercased()
        let path = URLText.path(target)
        return state.withLock { state in
            switch order {
            case .sequential:
                guard state.cursor < entries.count else {
                    return miss(
                        &state, method, path, expected: "nothing: all \(entries.count) recorded exchanges were served")
                }
                let entry = entries[state.cursor]
                guard entry.method == method, entry.path == path else {
                    return miss(&state, method, path, expected: entry.label)
                }
                state.cursor += 1
                return serve(&state, position: state.cursor - 1, body: body, repeated: false)
            case .route:
                let route = Self.route(method, path)
                guard let positions = routes[route] else { return miss(&state, method, path, expected: nil) }
                let next = state.routeCursors[route, default: 0]
                if next < positions.count {
                    state.routeCursors[route] = next + 1
                    return serve(&state, position: positions[next], body: body, repeated: false)
                }
                state.repeats += 1
                return serve(&state, position: positions[positions.count - 1], body: body, repeated: true)
            }
        }
    }

    /// Starts again from the first recorded exchange, forgetting what was served and missed.
    package func reset() {
        state.withLock { $0 = State() }
    }

    /// What has been served, repeated, missed and left so far.
    package var summary: Summary {
        state.withLock { state in
            Summary(
                offered: entries.count, served: state.served.count, repeats: state.repeats, misses: state.misses,
                unlistedMisses: state.unlistedMisses,
                unserved: entries.filter { !state.served.contains($0.eventIndex) }.map(\.label))
        }
    }

    /// The summary as a JSON document (for `GET /__workbench/playback`).
    package var summaryJSON: [UInt8] {
        let summary = self.summary
        let value: JSONValue = .object([
            .init("cassette", .string(name)), .init("order", .string(order.rawValue)),
            .init("offered", .integer(summary.offered)), .init("served", .integer(summary.served)),
            .init("repeats", .integer(summary.repeats)), .init("passed", .bool(summary.passed)),
            .init("misses", .array(summary.misses.map(JSONValue.string))),
            .init("unlistedMisses", .integer(summary.unlistedMisses)),
            .init("unserved", .array(summary.unserved.map(JSONValue.string))),
        ])
        return Array(JSONWriter.canonical(value).utf8)
    }

    /// The key of a route: `METHOD /path`.
    static func route(_ method: String, _ path: String) -> String { method + " " + path }

    // MARK: - Answers

    private func serve(_ state: inout State, position: Int, body: [UInt8], repeated: Bool) -> Answer {
        let entry = entries[position]
        state.served.insert(entry.eventIndex)
        var log = "\(entry.method) \(entry.path) -> "
        var answer: Answer
        if let response = entry.exchange.response, let problem = Self.unsendable(response) {
            // A cassette read from a file cannot hold such a response; one built in code can.
            let document: JSONValue = .object([
                .init("error", "recorded response cannot be sent"), .init("reason", .string(problem)),
            ])
            answer = Answer(
                kind: .transportError, status: 500, headers: ["Content-Type": "application/json"],
                body: Array(JSONWriter.compact(document).utf8), eventIndex: entry.eventIndex, log: "")
            log += "500 (the recorded response cannot be sent: \(problem))"
        } else if let response = entry.exchange.response {
            var headers = HTTPHeaders()
            for field in response.headers where !Self.hopByHop.contains(field.name.lowercased()) {
                headers.append(name: field.name, value: rewrite(field.value))
            }
            let bytes = rewrite(response.body)
            answer = Answer(
                kind: repeated ? .repeated : .recorded, status: response.status, headers: headers, body: bytes,
                eventIndex: entry.eventIndex, log: "")
            log += "\(response.status) (\(bytes.count) B)"
        } else {
            let failure = entry.exchange.error ?? .init(kind: "other", message: "no recorded response")
            answer = Answer(
                kind: .transportError, status: 502, headers: ["Content-Type": "application/json"],
                body: Self.transportErrorBody(failure), eventIndex: entry.eventIndex, log: "")
            log += "502 (recorded transport error: \(failure.kind): \(failure.message))"
        }
        log += ", " + entry.place
        if repeated { log += ", repeated: the route's recorded exchanges are used up" }
        if let note = Self.bodyNote(recorded: entry.exchange.request.body, received: body) { log += "; " + note }
        answer.log = log
        return answer
    }

    /// The body of the `502` that answers a recorded transport error (`RecordingProxy` answers a
    /// live one with the same): `{"error":"recorded transport error","kind":…,"message":…}`.
    static func transportErrorBody(_ failure: CassetteEvent.HTTPExchange.TransportFailure) -> [UInt8] {
        let document: JSONValue = .object([
            .init("error", "recorded transport error"), .init("kind", .string(failure.kind)),
            .init("message", .string(failure.message)),
        ])
        return Array(JSONWriter.compact(document).utf8)
    }

    /// Why a recorded response cannot go on the wire, nil when it can: a status outside
    /// `CassetteLimits.status`, more than `CassetteLimits.maximumHeaders` header fields, or a field
    /// that is no header (a name that is not a token, a value with CR, LF or NUL).
    static func unsendable(_ response: CassetteEvent.HTTPExchange.Response) -> String? {
        if !CassetteLimits.status.contains(response.status) {
            return
                "status \(response.status) is not an HTTP status (\(CassetteLimits.status.lowerBound) to \(CassetteLimits.status.upperBound))"
        }
        if response.headers.fields.count > CassetteLimits.maximumHeaders {
            return
                "\(response.headers.fields.count) header fields; a response has at most \(CassetteLimits.maximumHeaders)"
        }
        if let field = response.headers.fields.first(where: {
            !CassetteLimits.isHeaderName($0.name) || !CassetteLimits.isHeaderValue($0.value)
        }) {
            return
                "header field \(JSONDiff.brief(.string(field.name))) has a name that is not a token or a value with a control character"
        }
        return nil
    }

    /// How a received body differs from the recorded one, for the log (nil: the same JSON or bytes).
    /// Changed values of the same kind are only named (another client's randomness differs by
    /// design); missing, unexpected and retyped members are spelled out.
    static func bodyNote(recorded: [UInt8], received: [UInt8]) -> String? {
        guard recorded != received else { return nil }
        guard let expected = try? JSONParser.parse(recorded), let actual = try? JSONParser.parse(received) else {
            return "request body differs from the recorded one (\(received.count) B, recorded \(recorded.count) B)"
        }
        var valuesOnly: [String] = [], shape: [String] = []
        for difference in JSONDiff.differences(expected, actual) {
            if case .changed(let was, let now) = difference.change, was.kindName == now.kindName {
                valuesOnly.append(difference.path)
            } else {
                shape.append(difference.description)
            }
        }
        var parts: [String] = []
        if !shape.isEmpty {
            parts.append(
                "request body differs from the recorded one: " + shape.prefix(3).joined(separator: "; ")
                    + (shape.count > 3 ? "; …" : ""))
        }
        if !valuesOnly.isEmpty {
            parts.append(
                "other values than recorded at " + valuesOnly.prefix(6).joined(separator: ", ")
                    + (valuesOnly.count > 6 ? ", …" : ""))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private func miss(_ state: inout State, _ method: String, _ path: String, expected: String?) -> Answer {
        let closest = closest(method: method, path: path)
        var line = "\(method) \(path): no recorded exchange matches"
        if let expected { line += "; expected \(expected)" }
        if let closest { line += "; closest recorded: \(closest)" }
        if state.misses.count < Self.maximumListedMisses {
            state.misses.append(line)
        } else {
            state.unlistedMisses += 1
        }
        var members: [JSONValue.Member] = [
            .init("error", "no recorded response"), .init("cassette", .string(name)),
            .init("request", .string("\(method) \(path)")), .init("order", .string(order.rawValue)),
        ]
        if let expected { members.append(.init("expected", .string(expected))) }
        if let closest { members.append(.init("closest", .string(closest))) }
        return Answer(
            kind: .miss, status: 404, headers: ["Content-Type": "application/json"],
            body: Array(JSONWriter.compact(.object(members)).utf8), eventIndex: nil, log: "MISS " + line)
    }

    /// The recorded request nearest to `method path`, with what differs: the same path with another
    /// method, else the path sharing the most leading segments (then: the same method, the longest
    /// common prefix, the earliest).
    private func closest(method: String, path: String) -> String? {
        if let other = entries.first(where: { $0.path == path && $0.method != method }) {
            return "\(other.label) (the method differs)"
        }
        let segments = path.split(separator: "/")
        func shared(_ entry: Entry) -> Int {
            zip(segments, entry.path.split(separator: "/")).prefix { $0 == $1 }.count
        }
        func score(_ entry: Entry) -> (Int, Int, Int) {
            (shared(entry), entry.method == method ? 1 : 0, zip(path, entry.path).prefix { $0 == $1 }.count)
        }
        var best: Entry?
        for entry in entries where best == nil || score(entry) > score(best!) { best = entry }
        guard let best, shared(best) > 0 else { return nil }
        return "\(best.label) (the path differs after \(shared(best)) segment\(shared(best) == 1 ? "" : "s"))"
    }

    // MARK: - Origin rewriting

    /// Headers the serving side sets itself.
    static let hopByHop: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]

    private func rewrite(_ text: String) -> String {
        OriginRewrite(from: recordedOrigin, to: servedOrigin).apply(text)
    }

    private func rewrite(_ bytes: [UInt8]) -> [UInt8] {
        OriginRewrite(from: recordedOrigin, to: servedOrigin).apply(bytes)
    }
}
