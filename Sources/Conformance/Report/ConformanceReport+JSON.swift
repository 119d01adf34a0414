import OrderedJSON

/// The report as JSON (`--json`): `{"format": "mpin-workbench-conformance", "version": 1, the run,
/// "summary": verdict counts, "results": [...]}`; `init(json:)` reads it back.
extension ConformanceReport {
    public static let jsonFormat = "mpin-workbench-conformance"

    public var json: JSONValue {
        .object(
            [
                .init("format", .string(Self.jsonFormat)), .init("version", 1),
                .init("backend", .string(backendURL)), .init("userPrefix", .string(userPrefix)),
                .init("cases", pattern.map { JSONValue.string($0) } ?? .null),
                .init("rate", rate.map { JSONValue.double($0) } ?? .null),
                .init("requests", .integer(requests)), .init("seconds", .double(Self.rounded(seconds))),
                .init("operatorEndpoints", .bool(operatorEndpoints)),
                .init("deadlinePassed", deadlinePassed.map { JSONValue.string($0) } ?? .null),
            ] + clientMembers + [
                .init(
                    "summary", .object(Verdict.Kind.allCases.map { JSONValue.Member($0.rawValue, .integer(count($0))) })
                ),
                .init("results", .array(results.map(Self.json))),
            ])
    }

    /// A client suite's report: the client and why it could not be run (a backend's has neither).
    var clientMembers: [JSONValue.Member] {
        guard let client else { return [] }
        return [
            .init("client", .string(client)), .init("couldNotRun", couldNotRun.map { JSONValue.string($0) } ?? .null),
        ]
    }

    /// The report as indented JSON text.
    public var jsonText: String { JSONWriter.canonical(json) }

    static func json(_ result: CaseResult) -> JSONValue {
        .object([
            .init("id", .string(result.id)), .init("title", .string(result.title)),
            .init("group", .string(result.group.rawValue)),
            .init("level", .string(result.level.rawValue)), .init("source", .string(result.source)),
            .init("sends", .string(result.sends)), .init("expects", .string(result.expects)),
            .init("verdict", .string(result.verdict.kind.rawValue)), .init("reason", .string(result.verdict.reason)),
            .init("seconds", .double(rounded(result.seconds))), .init("requests", .integer(result.requests)),
            .init("cassette", result.cassettePath.map { JSONValue.string($0) } ?? .null),
            .init(
                "exchanges",
                .array(
                    result.exchanges.map { exchange -> JSONValue in
                        .object([
                            .init("actor", .string(exchange.actor)), .init("method", .string(exchange.method)),
                            .init("url", .string(exchange.url)), .init("requestBody", .string(exchange.requestBody)),
                            .init("status", exchange.status.map { JSONValue.integer($0) } ?? .null),
                            .init("responseBody", .string(exchange.responseBody)),
                            .init("error", exchange.error.map { JSONValue.string($0) } ?? .null),
                        ])
                    })),
        ])
    }

    static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Reads a report written by `json`.
    public init(json: JSONValue) throws(ConformanceReportError) {
        let reader = Reader(json, "$")
        guard try reader.string("format") == Self.jsonFormat else { throw .read("$.format", "not \(Self.jsonFormat)") }
        let results = try reader.array("results").enumerated().map {
            pair throws(ConformanceReportError) -> CaseResult in
            let (offset, item) = pair
            let r = Reader(item, "$.results[\(offset)]")
            guard let group = ConformanceGroup(rawValue: try r.string("group")) else {
                throw .read(r.path + ".group", "unknown group")
            }
            guard let level = RequirementLevel(rawValue: try r.string("level")) else {
                throw .read(r.path + ".level", "unknown level")
            }
            guard let kind = Verdict.Kind(rawValue: try r.string("verdict")) else {
                throw .read(r.path + ".verdict", "unknown verdict")
            }
            let exchanges = try r.array("exchanges").enumerated().map {
                pair throws(ConformanceReportError) -> ExchangeSummary in
                let (n, item) = pair
                let e = Reader(item, r.path + ".exchanges[\(n)]")
                return ExchangeSummary(
                    actor: try e.string("actor"), method: try e.string("method"), url: try e.string("url"),
                    requestBody: try e.string("requestBody"), status: item["status"]?.intValue,
                    responseBody: try e.string("responseBody"), error: item["error"]?.stringValue)
            }
            return CaseResult(
                id: try r.string("id"), title: try r.string("title"), group: group, level: level,
                source: try r.string("source"), sends: try r.string("sends"), expects: try r.string("expects"),
                verdict: Verdict(kind, try r.string("reason")), seconds: item["seconds"]?.doubleValue ?? 0,
                requests: item["requests"]?.intValue ?? 0, exchanges: exchanges,
                cassettePath: item["cassette"]?.stringValue)
        }
        self.init(
            backendURL: try reader.string("backend"), userPrefix: try reader.string("userPrefix"),
            pattern: json["cases"]?.stringValue, rate: json["rate"]?.doubleValue,
            requests: json["requests"]?.intValue ?? 0,
            seconds: json["seconds"]?.doubleValue ?? 0,
            operatorEndpoints: json["operatorEndpoints"]?.boolValue ?? false,
            results: results, deadlinePassed: json["deadlinePassed"]?.stringValue)
        client = json["client"]?.stringValue
        couldNotRun = json["couldNotRun"]?.stringValue
    }

    /// Reads members of one object, naming the JSON path of what is missing.
    private struct Reader {
        let value: JSONValue
        let path: String
        init(_ value: JSONValue, _ path: String) {
            self.value = value
            self.path = path
        }

        func string(_ name: String) throws(ConformanceReportError) -> String {
            guard let text = value[name]?.stringValue else { throw .read("\(path).\(name)", "a string is required") }
            return text
        }

        func array(_ name: String) throws(ConformanceReportError) -> [JSONValue] {
            guard let items = value[name]?.arrayValue else { throw .read("\(path).\(name)", "an array is required") }
            return items
        }
    }
}
