import CommonFormats
import Foundation
import OrderedJSON
import SDKSeams

/// Reads a JSON value against the cassette schema, naming the event index and field of any problem.
struct SchemaReader {
    var eventIndex: Int?

    func fail(_ field: String, _ message: String) -> CassetteError {
        CassetteError(kind: .schema, message: message, eventIndex: eventIndex, field: field)
    }

    func member(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> JSONValue {
        guard let value = object[name] else { throw fail(join(path, name), "missing") }
        return value
    }

    func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : path + "." + name }

    func object(_ value: JSONValue, _ path: String) throws(CassetteError) -> JSONValue {
        guard case .object = value else { throw fail(path, "expected an object, found \(value.kindName)") }
        return value
    }

    func string(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> String {
        let value = try member(object, name, path)
        guard let text = value.stringValue else {
            throw fail(join(path, name), "expected a string, found \(value.kindName)")
        }
        return text
    }

    func optionalString(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard let text = value.stringValue else {
            throw fail(join(path, name), "expected a string, found \(value.kindName)")
        }
        return text
    }

    func int(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> Int {
        let value = try member(object, name, path)
        guard let number = value.intValue else {
            throw fail(join(path, name), "expected an integer, found \(JSONDiff.brief(value))")
        }
        return number
    }

    func optionalInt(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> Int? {
        guard let value = object[name], value != .null else { return nil }
        guard let number = value.intValue else {
            throw fail(join(path, name), "expected an integer, found \(JSONDiff.brief(value))")
        }
        return number
    }

    func bool(_ object: JSONValue, _ name: String, _ path: String, default fallback: Bool) throws(CassetteError) -> Bool
    {
        guard let value = object[name], value != .null else { return fallback }
        guard let flag = value.boolValue else {
            throw fail(join(path, name), "expected true or false, found \(value.kindName)")
        }
        return flag
    }

    func array(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> [JSONValue] {
        let value = try member(object, name, path)
        guard let items = value.arrayValue else {
            throw fail(join(path, name), "expected an array, found \(value.kindName)")
        }
        return items
    }

    func fields(_ object: JSONValue, _ name: String, _ path: String) throws(CassetteError) -> [NamedField] {
        var out: [NamedField] = []
        for (position, item) in try array(object, name, path).enumerated() {
            let itemPath = join(path, name) + "[\(position)]"
            _ = try self.object(item, itemPath)
            out.append(NamedField(try string(item, "name", itemPath), try string(item, "value", itemPath)))
        }
        return out
    }

    /// An integer member within `range`; the error names the range and what was found.
    func int(_ object: JSONValue, _ name: String, _ path: String, in range: ClosedRange<Int>, _ what: String)
        throws(CassetteError) -> Int
    {
        let number = try int(object, name, path)
        guard range.contains(number) else {
            throw fail(join(path, name), "\(number) is not \(what) (\(range.lowerBound) to \(range.upperBound))")
        }
        return number
    }

    /// At most `CassetteLimits.maximumHeaders` fields, each name a token and each value free of
    /// control characters (a server could not send them, or would drop them unseen).
    func headers(_ object: JSONValue, _ path: String) throws(CassetteError) -> HTTPHeaders {
        let listPath = join(path, "headers")
        let count = try array(object, "headers", path).count
        guard count <= CassetteLimits.maximumHeaders else {
            throw fail(listPath, "\(count) header fields; a message has at most \(CassetteLimits.maximumHeaders)")
        }
        let fields = try fields(object, "headers", path)
        for (position, field) in fields.enumerated() {
            guard CassetteLimits.isHeaderName(field.name) else {
                throw fail(
                    listPath + "[\(position)].name",
                    "\(JSONWriter.compact(.string(field.name))) is not a header name "
                        + "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, CR or LF)")
            }
            guard CassetteLimits.isHeaderValue(field.value) else {
                throw fail(
                    listPath + "[\(position)].value",
                    "has a control character (CR, LF, NUL, ...), which no header value may hold")
            }
        }
        return HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
    }

    func body(_ object: JSONValue, _ path: String) throws(CassetteError) -> [UInt8] {
        let bodyPath = join(path, "body")
        let body = try self.object(try member(object, "body", path), bodyPath)
        let text = try optionalString(body, "text", bodyPath)
        let base64 = try optionalString(body, "base64", bodyPath)
        let bytes: [UInt8]
        switch (text, base64) {
        case (let text?, nil): bytes = Array(text.utf8)
        case (nil, let encoded?):
            guard let data = Data(base64Encoded: encoded) else {
                throw fail(join(bodyPath, "base64"), "not valid base64")
            }
            bytes = Array(data)
        case (nil, nil): throw fail(bodyPath, "needs either \"text\" or \"base64\"")
        default: throw fail(bodyPath, "has both \"text\" and \"base64\"; keep one")
        }
        if let view = body["json"], view != .null {
            try checkView(view, of: bytes, at: join(bodyPath, "json"), source: text == nil ? "base64" : "text")
        }
        return bytes
    }

    /// A body's `json` view must say what its bytes say: only the bytes are replayed, so a view edited
    /// alone would change nothing while reading as if it did.
    func checkView(_ view: JSONValue, of bytes: [UInt8], at field: String, source: String) throws(CassetteError) {
        if let parsed = try? JSONParser.parse(bytes), parsed.semanticallyEquals(view) { return }
        throw fail(
            field,
            "does not match the body's `\(source)`, which is what is replayed (the bytes are the truth, "
                + "`json` is only a view of them): to change the body, edit `\(source)`, then run `mpin-workbench cassette lint --fix FILE`, "
                + "which writes `json` again from `\(source)`; an edit to `json` alone is undone by --fix")
    }
}

extension Cassette {
    /// Reads a cassette of the current format version from its JSON value.
    ///
    /// - Throws: `CassetteError` of kind `.schema`, naming the event index and field.
    public init(jsonValue root: consuming JSONValue) throws(CassetteError) {
        let reader = SchemaReader()
        _ = try reader.object(root, "")
        let version = try reader.int(root, "formatVersion", "")
        let tool = try reader.object(try reader.member(root, "tool", ""), "tool")
        let scenario = try reader.object(try reader.member(root, "scenario", ""), "scenario")
        let backend = try reader.object(try reader.member(root, "backend", ""), "backend")
        var redactions: [RedactionEntry] = []
        if root["redactions"] != nil {
            for (position, item) in try reader.array(root, "redactions", "").enumerated() {
                let path = "redactions[\(position)]"
                _ = try reader.object(item, path)
                var occurrences = 0
                if item["occurrences"] != nil, item["occurrences"] != .null {
                    occurrences = try reader.int(item, "occurrences", path, in: CassetteLimits.occurrences, "a count")
                }
                var slots: [RedactionSlot] = []
                if item["at"] != nil, item["at"] != .null {
                    for (number, slot) in try reader.array(item, "at", path).enumerated() {
                        guard case .string(let text) = slot, let parsed = RedactionSlot(text) else {
                            throw reader.fail(
                                "\(path).at[\(number)]",
                                "expected \"scenario\", \"events[N]\", \"events[N].request\" or \"events[N].response\"")
                        }
                        slots.append(parsed)
                    }
                }
                redactions.append(
                    RedactionEntry(
                        placeholder: try reader.string(item, "placeholder", path),
                        field: try reader.string(item, "field", path), occurrences: occurrences,
                        slots: slots))
            }
        }
        var replayMode: ReplayMode?
        if let mode = root["replayMode"], mode != .null {
            _ = try reader.object(mode, "replayMode")
            let name = try reader.string(mode, "mode", "replayMode")
            var ignored: [String] = []
            if mode["ignore"] != nil {
                for (position, item) in try reader.array(mode, "ignore", "replayMode").enumerated() {
                    guard let text = item.stringValue else {
                        throw reader.fail("replayMode.ignore[\(position)]", "expected a string")
                    }
                    ignored.append(text)
                }
            }
            var fresh: [String] = []
            if mode["fresh"] != nil {
                for (position, item) in try reader.array(mode, "fresh", "replayMode").enumerated() {
                    guard let text = item.stringValue else {
                        throw reader.fail("replayMode.fresh[\(position)]", "expected a string")
                    }
                    fresh.append(text)
                }
            }
            guard let parsed = ReplayMode(name: name, ignoring: ignored, fresh: fresh) else {
                throw reader.fail(
                    "replayMode.mode", "unknown mode \"\(name)\" (strict, method-url, json, ignore or context)")
            }
            replayMode = parsed
        }
        var origin: Origin?
        if let value = root["origin"], value != .null {
            _ = try reader.object(value, "origin")
            var unbound: [Origin.Unbound] = []
            if value["unbound"] != nil {
                for (position, item) in try reader.array(value, "unbound", "origin").enumerated() {
                    let path = "origin.unbound[\(position)]"
                    _ = try reader.object(item, path)
                    unbound.append(
                        Origin.Unbound(
                            variable: try reader.string(item, "variable", path),
                            test: try reader.optionalString(item, "test", path),
                            value: try reader.optionalString(item, "value", path),
                            reason: try reader.string(item, "reason", path)))
                }
            }
            origin = Origin(
                format: try reader.string(value, "format", "origin"), file: try reader.string(value, "file", "origin"),
                test: try reader.optionalString(value, "test", "origin"), unbound: unbound)
        }
        // The events' JSON is taken out of the root and each event's let go once it is read: when
        // the caller hands over its only copy, the JSON of the events read and the events
        // themselves are not both held.
        var items = try reader.array(root, "events", "")
        if case .object(var members) = root, let place = members.firstIndex(where: { $0.name == "events" }) {
            members[place].value = .null
            root = .object(members)
        }
        var events: [CassetteEvent] = []
        events.reserveCapacity(items.count)
        for index in items.indices {
            events.append(try CassetteEvent(jsonValue: items[index], index: index))
            items[index] = .null
        }
        self.init(
            formatVersion: version,
            tool: Tool(
                name: try reader.string(tool, "name", "tool"), version: try reader.string(tool, "version", "tool")),
            curve: try reader.string(root, "curve", ""),
            scenario: Scenario(
                name: try reader.string(scenario, "name", "scenario"),
                path: try reader.optionalString(scenario, "path", "scenario"),
                seed: try reader.optionalString(scenario, "seed", "scenario"),
                script: scenario["script"]),
            backend: Backend(
                url: try reader.string(backend, "url", "backend"),
                flavour: try reader.string(backend, "flavour", "backend"),
                embedded: try reader.bool(backend, "embedded", "backend", default: false),
                upstream: try reader.optionalString(backend, "upstream", "backend")),
            replayMode: replayMode, origin: origin, redactions: redactions, events: events)
    }
}

extension CassetteEvent {
    /// Reads one event; errors name `index` and the field.
    init(jsonValue value: JSONValue, index: Int) throws(CassetteError) {
        let reader = SchemaReader(eventIndex: index)
        _ = try reader.object(value, "")
        let type = try reader.string(value, "type", "")
        let actor = EventActor(rawValue: try reader.string(value, "actor", ""))
        var step: ScenarioStep?
        if let stepValue = value["step"], stepValue != .null {
            _ = try reader.object(stepValue, "step")
            step = ScenarioStep(
                index: try reader.int(stepValue, "index", "step", in: CassetteLimits.stepIndex, "a step index"),
                name: try reader.string(stepValue, "name", "step"))
        }
        let payload: Payload
        switch type {
        case "call":
            let status = try reader.object(try reader.member(value, "status", ""), "status")
            payload = .call(
                Call(
                    name: try reader.string(value, "name", ""), arguments: try reader.fields(value, "arguments", ""),
                    status: .init(
                        code: try reader.string(status, "code", "status"),
                        message: try reader.optionalString(status, "message", "status") ?? ""),
                    userState: try reader.optionalString(value, "userState", ""),
                    outputs: value["outputs"] == nil ? [] : try reader.fields(value, "outputs", "")))
        case "http":
            let request = try reader.object(try reader.member(value, "request", ""), "request")
            var exchange = HTTPExchange(
                request: .init(
                    method: try reader.string(request, "method", "request"),
                    url: try reader.string(request, "url", "request"),
                    headers: try reader.headers(request, "request"), body: try reader.body(request, "request")))
            if let response = value["response"], response != .null {
                _ = try reader.object(response, "response")
                exchange.response = .init(
                    status: try reader.int(response, "status", "response", in: CassetteLimits.status, "an HTTP status"),
                    headers: try reader.headers(response, "response"),
                    body: try reader.body(response, "response"))
            }
            if let error = value["error"], error != .null {
                _ = try reader.object(error, "error")
                var code: Int?
                if error["code"] != nil, error["code"] != .null {
                    code = try reader.int(
                        error, "code", "error", in: CassetteLimits.errorCode, "a transport error code")
                }
                exchange.error = .init(
                    kind: try reader.string(error, "kind", "error"),
                    message: try reader.string(error, "message", "error"),
                    code: code)
            }
            switch (exchange.response, exchange.error) {
            case (nil, nil): throw reader.fail("response", "missing (an http event needs a response or an error)")
            case (.some, .some): throw reader.fail("error", "an http event has a response or an error, not both")
            default: break
            }
            if let timings = value["timings"], timings != .null {
                _ = try reader.object(timings, "timings")
                func phase(_ name: String) throws(CassetteError) -> Double {
                    let item = try reader.member(timings, name, "timings")
                    guard let number = item.doubleValue else {
                        throw reader.fail("timings." + name, "expected a number")
                    }
                    let range = CassetteLimits.timingSeconds
                    guard number.isFinite else {
                        throw reader.fail(
                            "timings." + name,
                            "\(JSONWriter.compact(item)) is not a number of seconds a Double can hold")
                    }
                    guard range.contains(number) else {
                        throw reader.fail(
                            "timings." + name,
                            "\(JSONWriter.compact(item)) is not a duration from \(Int(range.lowerBound)) to "
                                + "\(Int(range.upperBound)) seconds")
                    }
                    return number
                }
                exchange.timings = HTTPTimings(
                    dns: try phase("dns"), connect: try phase("connect"), tls: try phase("tls"),
                    requestSent: try phase("requestSent"), firstByte: try phase("firstByte"),
                    total: try phase("total"))
            }
            exchange.context = try reader.optionalString(value, "context", "")
            payload = .http(exchange)
        case "crypto":
            payload = .crypto(
                CryptoStep(
                    primitive: try reader.string(value, "primitive", ""),
                    inputs: try reader.fields(value, "inputs", ""),
                    outputs: try reader.fields(value, "outputs", "")))
        case "random":
            let hex = try reader.string(value, "bytes", "")
            if Hex.decode(hex) == nil, Placeholder.whole(hex) == nil {
                throw reader.fail(
                    "bytes",
                    "expected lowercase hex or a {{placeholder}}, found \(TextShortening.middle(hex, limit: 40))")
            }
            payload = .random(RandomDraw(purpose: try reader.optionalString(value, "purpose", ""), hex: hex))
        case "clock":
            let milliseconds = try reader.member(value, "milliseconds", "")
            guard case .number(let literal) = milliseconds, let parsed = Int64(literal) else {
                throw reader.fail(
                    "milliseconds", "expected an integer number of milliseconds, found \(JSONDiff.brief(milliseconds))")
            }
            let range = CassetteLimits.clockMilliseconds
            guard range.contains(parsed) else {
                throw reader.fail(
                    "milliseconds",
                    "\(parsed) is not a time from \(range.lowerBound) to \(range.upperBound) ms since 1970 "
                        + "(1970 to 9999)")
            }
            payload = .clock(ClockRead(purpose: try reader.optionalString(value, "purpose", ""), milliseconds: parsed))
        default:
            throw reader.fail("type", "unknown event type \"\(type)\" (call, http, crypto, random or clock)")
        }
        self.init(actor: actor, step: step, payload)
    }
}
