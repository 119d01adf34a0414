import CommonFormats
import Foundation
import OrderedJSON
import SDKSeams

extension Cassette {
    /// The cassette as a JSON value in the file layout of format version 1.
    public var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [
            .init("formatVersion", .integer(formatVersion)),
            .init("tool", .object([.init("name", .string(tool.name)), .init("version", .string(tool.version))])),
            .init("curve", .string(curve)),
            .init("scenario", scenario.jsonValue),
            .init(
                "backend",
                .object(
                    [
                        .init("url", .string(backend.url)), .init("flavour", .string(backend.flavour)),
                        .init("embedded", .bool(backend.embedded)),
                    ] + (backend.upstream.map { [.init("upstream", .string($0))] } ?? []))),
            .init(
                "redactions",
                .array(
                    redactions.map {
                        .object(
                            [
                                .init("placeholder", .string($0.placeholder)), .init("field", .string($0.field)),
                                .init("occurrences", .integer($0.occurrences)),
                            ]
                                + ($0.slots.isEmpty
                                    ? [] : [.init("at", .array($0.slots.map { .string($0.description) }))]))
                    })),
            .init("events", .array(events.map(\.jsonValue))),
        ]
        if let replayMode { members.append(.init("replayMode", replayMode.jsonValue)) }
        if let origin {
            var fields: [JSONValue.Member] = [
                .init("format", .string(origin.format)), .init("file", .string(origin.file)),
            ]
            if let test = origin.test { fields.append(.init("test", .string(test))) }
            if !origin.unbound.isEmpty {
                fields.append(
                    .init(
                        "unbound",
                        .array(
                            origin.unbound.map { item in
                                var members: [JSONValue.Member] = [
                                    .init("variable", .string(item.variable)), .init("reason", .string(item.reason)),
                                ]
                                if let test = item.test { members.append(.init("test", .string(test))) }
                                if let value = item.value { members.append(.init("value", .string(value))) }
                                return .object(members)
                            })))
            }
            members.append(.init("origin", .object(fields)))
        }
        return .object(members)
    }

    /// The canonical file text: pretty-printed, sorted keys, trailing newline.
    public var canonicalText: String { JSONWriter.canonical(jsonValue) }

    /// The canonical file bytes; equal cassettes give identical bytes.
    public var canonicalBytes: [UInt8] { JSONWriter.canonicalBytes(jsonValue) }

    /// `canonicalBytes` in pieces of about `chunk` bytes, made event by event
    /// (`JSONWriter.writeCanonical`): about one event's JSON and one piece in memory beyond the
    /// cassette, for writing and comparing big cassettes.
    package func writeCanonical<Failure: Error>(chunk: Int = 1 << 20, _ flush: ([UInt8]) throws(Failure) -> Void)
        throws(Failure)
    {
        var header = self
        header.events = []
        let events = self.events
        try JSONWriter.writeCanonical(
            header.jsonValue, streaming: "events", count: events.count, element: { events[$0].jsonValue },
            chunk: chunk, flush: flush)
    }
}

extension Cassette.Scenario {
    var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [.init("name", .string(name))]
        if let path { members.append(.init("path", .string(path))) }
        if let seed { members.append(.init("seed", .string(seed))) }
        if let script { members.append(.init("script", script)) }
        return .object(members)
    }
}

extension ReplayMode {
    var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [.init("mode", .string(matching.rawValue))]
        if matching == .ignore { members.append(.init("ignore", .array(ignored.map(JSONValue.string)))) }
        if matching == .context, !fresh.isEmpty { members.append(.init("fresh", .array(fresh.map(JSONValue.string)))) }
        return .object(members)
    }
}

extension CassetteEvent {
    /// The event as it appears in `events`.
    public var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [.init("type", .string(type)), .init("actor", .string(actor.rawValue))]
        if let step {
            members.append(
                .init("step", .object([.init("index", .integer(step.index)), .init("name", .string(step.name))])))
        }
        switch payload {
        case .call(let call):
            members += [
                .init("name", .string(call.name)),
                .init("arguments", Self.fields(call.arguments)),
                .init(
                    "status",
                    .object([.init("code", .string(call.status.code)), .init("message", .string(call.status.message))])),
                .init("outputs", Self.fields(call.outputs)),
            ]
            if let state = call.userState { members.append(.init("userState", .string(state))) }
        case .http(let exchange):
            members.append(
                .init(
                    "request",
                    .object([
                        .init("method", .string(exchange.request.method)),
                        .init("url", .string(exchange.request.url)),
                        .init("headers", Self.headers(exchange.request.headers)),
                        .init("body", Self.body(exchange.request.body)),
                    ])))
            if let response = exchange.response {
                members.append(
                    .init(
                        "response",
                        .object([
                            .init("status", .integer(response.status)),
                            .init("headers", Self.headers(response.headers)),
                            .init("body", Self.body(response.body)),
                        ])))
            }
            if let error = exchange.error {
                var fields: [JSONValue.Member] = [
                    .init("kind", .string(error.kind)), .init("message", .string(error.message)),
                ]
                if let code = error.code { fields.append(.init("code", .integer(code))) }
                members.append(.init("error", .object(fields)))
            }
            if let timings = exchange.timings {
                members.append(
                    .init(
                        "timings",
                        .object([
                            .init("dns", .double(timings.dns)), .init("connect", .double(timings.connect)),
                            .init("tls", .double(timings.tls)), .init("requestSent", .double(timings.requestSent)),
                            .init("firstByte", .double(timings.firstByte)), .init("total", .double(timings.total)),
                        ])))
            }
            if let context = exchange.context { members.append(.init("context", .string(context))) }
        case .crypto(let step):
            members += [
                .init("primitive", .string(step.primitive)),
                .init("inputs", Self.fields(step.inputs)),
                .init("outputs", Self.fields(step.outputs)),
            ]
        case .random(let draw):
            members.append(.init("bytes", .string(draw.hex)))
            if let purpose = draw.purpose { members.append(.init("purpose", .string(purpose))) }
        case .clock(let read):
            members.append(.init("milliseconds", .integer(read.milliseconds)))
            members.append(.init("utc", .string(CivilTime.iso8601WithMilliseconds(milliseconds: read.milliseconds))))
            if let purpose = read.purpose { members.append(.init("purpose", .string(purpose))) }
        }
        return .object(members)
    }

    static func fields(_ fields: [NamedField]) -> JSONValue {
        .array(fields.map { .object([.init("name", .string($0.name)), .init("value", .string($0.value))]) })
    }

    static func headers(_ headers: HTTPHeaders) -> JSONValue {
        .array(headers.fields.map { .object([.init("name", .string($0.name)), .init("value", .string($0.value))]) })
    }

    /// `{"text": …}` (plus a parsed `json` view when the text is JSON) for UTF-8 bodies, else
    /// `{"base64": …}`. Only `text` or `base64` is read back; `json` is for people.
    static func body(_ bytes: [UInt8]) -> JSONValue {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .object([.init("base64", .string(Data(bytes).base64EncodedString()))])
        }
        var members: [JSONValue.Member] = [.init("text", .string(text))]
        if let view = jsonView(bytes) { members.append(.init("json", view)) }
        return .object(members)
    }

    /// The parsed JSON of a body, when it is a JSON object or array.
    static func jsonView(_ bytes: [UInt8]) -> JSONValue? {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        switch value {
        case .object, .array: return value
        default: return nil
        }
    }
}
