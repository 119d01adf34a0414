import OrderedJSON
import SDKSeams

extension HTTPResponse {
    /// The body as JSON, nil when it is not JSON.
    public var json: JSONValue? {
        guard !body.isEmpty else { return nil }
        return try? JSONParser.parse(body)
    }

    /// The start of the body as text, quoted, for reasons (at most 160 characters).
    public var excerpt: String {
        guard !body.isEmpty else { return "(empty body)" }
        let text = bodyText ?? "<\(body.count) bytes, not UTF-8>"
        let cut = text.count > 160 ? String(text.prefix(160)) + "…" : text
        return "\"" + cut + "\""
    }

    /// `200 "…"`: the status and the body's start.
    public var summary: String { "\(status) \(excerpt)" }

    /// Whether the status is 4xx.
    public var isClientError: Bool { (400..<500).contains(status) }
    /// Whether the status is 5xx.
    public var isServerError: Bool { status >= 500 }

    /// The media type of `Content-Type`, lowercased, parameters aside.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        return type.trimmingSpaces.lowercased()
    }
}
