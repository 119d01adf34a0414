import OrderedJSON

/// `cassette import --format milagro-sdk`: cassettes from recordings of the Milagro C++ SDK core's
/// test harness (`tests/common/http_recorder.cpp`).
///
/// The file is a JSON array of `{request: {method, url, data, context}, response: {success, error,
/// httpStatus, headers, data}}`. The test is the part of `context` after the last `@`; each test
/// becomes one cassette, its exchanges in file order. The harness recorded no request headers,
/// random draws, clock reads or crypto steps, and request bodies carry fresh randomness, so the
/// cassettes replay in mode `method-url`. Exchanges of the access-number browser side
/// (`/rps/getAccessNumber`, `/rps/accessnumber`, `/rps/access`, `/rps/getQrUrl`, and
/// `/mpinAuthenticate` whose context names no user in a test that has opened a browser session with
/// one of the former) get the actor `browser`. Outside an access-number or QR flow only the mobile
/// SDK posts to `/mpinAuthenticate`, so there it stays with the SDK whatever its context says.
public struct LegacyImporter: Sendable {
    /// The format name on the command line.
    public static let formatName = "milagro-sdk"

    /// One imported test.
    public struct Imported: Sendable {
        public var test: String
        public var cassette: Cassette
        /// A file name for the cassette: the test name made safe, with `.json`.
        public var fileName: String
    }

    public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    public var tool: Cassette.Tool
    public var curve: String
    /// The scenario attached to each test's cassette. The default names it after the test; the
    /// bundled scenarios hook in here (same name, with their script and path).
    public var scenarioName: @Sendable (String) -> Cassette.Scenario

    public init(tool: Cassette.Tool, curve: String = "BN254CX",
                scenarioName: @escaping @Sendable (String) -> Cassette.Scenario = { Cassette.Scenario(name: $0) }) {
        self.tool = tool
        self.curve = curve
        self.scenarioName = scenarioName
    }

    /// The cassettes of the file's bytes, one per test, in order of first appearance.
    public func importFile(_ bytes: [UInt8], path: String) throws(ImportError) -> [Imported] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ImportError(path: path, message: "not valid JSON: \(error)")
        }
        guard let items = document.arrayValue else {
            throw ImportError(path: path, message: "expected a JSON array of recorded exchanges, found \(document.kindName)")
        }
        var order: [String] = []
        var byTest: [String: [CassetteEvent]] = [:]
        // The backend: the first answered request's origin, else the first request's.
        var hosts: [String: String] = [:]
        var firstAnswered: [String: Bool] = [:]
        // Tests whose browser side has started (an access number or QR URL was asked for).
        var browserSessions: Set<String> = []
        for (index, item) in items.enumerated() {
            func field(_ object: JSONValue?, _ name: String, _ where_: String) throws(ImportError) -> JSONValue {
                guard let value = object?[name] else {
                    throw ImportError(path: path, message: "exchange \(index): missing \(where_).\(name)")
                }
                return value
            }
            func text(_ object: JSONValue?, _ name: String, _ where_: String) throws(ImportError) -> String {
                let raw = try field(object, name, where_)
                guard let value = raw.stringValue else {
                    throw ImportError(path: path, message: "exchange \(index): \(where_).\(name) should be a string")
                }
                return value
            }
            let request = try field(item, "request", "exchange")
            let response = try field(item, "response", "exchange")
            let method = try text(request, "method", "request"), url = try text(request, "url", "request")
            let context = request["context"]?.stringValue ?? ""
            let test = context.lastIndex(of: "@").map { String(context[context.index(after: $0)...]) } ?? ""
            let testName = test.isEmpty ? "unnamed" : test
            var exchange = CassetteEvent.HTTPExchange(
                request: .init(method: method, url: url, body: Array((request["data"]?.stringValue ?? "").utf8)), context: context)
            if response["success"]?.boolValue ?? true {
                var headers = HTTPHeadersValue()
                for member in response["headers"]?.objectMembers ?? [] {
                    headers.append(name: member.name, value: member.value.stringValue ?? JSONWriter.compact(member.value))
                }
                guard let status = try field(response, "httpStatus", "response").intValue else {
                    throw ImportError(path: path, message: "exchange \(index): response.httpStatus should be an integer")
                }
                exchange.response = .init(status: status, headers: headers, body: Array((response["data"]?.stringValue ?? "").utf8))
            } else {
                let message = response["error"]?.stringValue ?? ""
                exchange.error = .init(kind: Self.errorKind(message), message: message)
            }
            if byTest[testName] == nil { order.append(testName) }
            let actor = Self.actor(url: url, context: context, browserSession: browserSessions.contains(testName))
            if actor == .browser { browserSessions.insert(testName) }
            byTest[testName, default: []].append(CassetteEvent(actor: actor, .http(exchange)))
            if hosts[testName] == nil || (exchange.response != nil && firstAnswered[testName] == nil) {
                hosts[testName] = URLText.origin(of: url)
                if exchange.response != nil { firstAnswered[testName] = true }
            }
        }
        return order.map { test in
            let cassette = Cassette(
                tool: tool, curve: curve, scenario: scenarioName(test),
                backend: .init(url: hosts[test] ?? "", flavour: "milagro"),
                replayMode: .methodURL, origin: .init(format: Self.formatName, file: path, test: test), events: byTest[test] ?? [])
            return Imported(test: test, cassette: cassette, fileName: Self.fileName(test))
        }
    }

    /// Who made a recorded request: `browserSession` tells whether the test's browser side has
    /// already asked for an access number or QR URL.
    static func actor(url: String, context: String, browserSession: Bool) -> EventActor {
        let path = URLText.path(url)
        if ["/rps/getAccessNumber", "/rps/accessnumber", "/rps/access", "/rps/getQrUrl"].contains(path) { return .browser }
        if path == "/mpinAuthenticate", browserSession {
            let user = context.split(separator: "@", omittingEmptySubsequences: false).first?
                .split(separator: "-", omittingEmptySubsequences: false).first ?? ""
            if user.isEmpty { return .browser }
        }
        return .sdk
    }

    static func errorKind(_ message: String) -> String {
        let lower = message.lowercased()
        if lower.contains("resolve") { return "hostNotFound" }
        if lower.contains("refused") || lower.contains("couldn't connect") { return "connectionRefused" }
        if lower.contains("timed out") || lower.contains("timeout") { return "timedOut" }
        if lower.contains("ssl") || lower.contains("tls") || lower.contains("certificate") { return "tls" }
        return "other"
    }

    /// `http://host:port` of a URL.
    static func fileName(_ test: String) -> String {
        String(test.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) + ".json"
    }
}
