import FlowRecording

/// One exchange of a case as the report shows it: who sent it, the request line and body, the
/// status and body that came back (bodies cut at `limit` bytes).
public struct ExchangeSummary: Sendable, Hashable {
    public var actor: String
    public var method: String
    public var url: String
    public var requestBody: String
    /// Nil when no answer came (a transport error).
    public var status: Int?
    public var responseBody: String
    /// The transport error, when there was one.
    public var error: String?

    public init(
        actor: String, method: String, url: String, requestBody: String, status: Int?, responseBody: String,
        error: String?
    ) {
        self.actor = actor
        self.method = method
        self.url = url
        self.requestBody = requestBody
        self.status = status
        self.responseBody = responseBody
        self.error = error
    }

    /// The largest part of a body a report keeps.
    public static let limit = 4096

    /// The `http` events of a cassette.
    public static func of(_ cassette: Cassette) -> [ExchangeSummary] {
        cassette.events.compactMap { event in
            guard case .http(let exchange) = event.payload else { return nil }
            return ExchangeSummary(
                actor: event.actor.rawValue, method: exchange.request.method, url: exchange.request.url,
                requestBody: text(exchange.request.body), status: exchange.response?.status,
                responseBody: exchange.response.map { text($0.body) } ?? "",
                error: exchange.error.map { "\($0)" })
        }
    }

    /// A body as text: UTF-8 (cut at `limit` bytes), or a note of its size.
    static func text(_ body: [UInt8]) -> String {
        let cut = body.count > limit
        guard
            let text = String(validating: body.prefix(limit), as: UTF8.self)
                ?? (cut ? nil : String(validating: body, as: UTF8.self))
        else {
            return "<\(body.count) bytes, not UTF-8>"
        }
        return cut ? text + "… (\(body.count) bytes in all)" : text
    }
}
