import OrderedJSON

extension CassetteLint {
    /// The cassette at `path` read with the `json` views of its bodies set aside, for `cassette
    /// lint --fix`: a body's bytes (`text`, or `base64`) are what is replayed, so they are the
    /// truth, and the canonical form writes each view again from them. Everything else is read
    /// and checked as `CassetteFile.read` does.
    public static func readRebuildingViews(_ path: String) throws(CassetteError) -> Cassette {
        let bytes = try CassetteFile.readBytes(path)
        guard let document = try? JSONParser.parse(bytes) else { return try CassetteFile.read(path) }
        do {
            return try CassetteFile.decode(Array(JSONWriter.canonical(droppingViews(document)).utf8))
        } catch {
            var located = error
            located.path = path
            throw located
        }
    }

    /// `document` without the `json` member of any event's request or response body.
    static func droppingViews(_ document: JSONValue) -> JSONValue {
        func body(_ side: JSONValue) -> JSONValue {
            guard case .object(let members) = side else { return side }
            return .object(
                members.map { member in
                    guard member.name == "body", case .object(let fields) = member.value else { return member }
                    return JSONValue.Member("body", .object(fields.filter { $0.name != "json" }))
                })
        }
        guard case .object(let members) = document else { return document }
        return .object(
            members.map { member in
                guard member.name == "events", case .array(let events) = member.value else { return member }
                return JSONValue.Member(
                    "events",
                    .array(
                        events.map { event in
                            guard case .object(let fields) = event else { return event }
                            return .object(
                                fields.map { field in
                                    field.name == "request" || field.name == "response"
                                        ? JSONValue.Member(field.name, body(field.value)) : field
                                })
                        }))
            })
    }
}
