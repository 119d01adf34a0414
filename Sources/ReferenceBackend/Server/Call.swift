import Foundation
import Hummingbird

/// One request as the handlers see it: method, path segments, decoded query, headers and the
/// whole body (at most the configured size).
struct Call: Sendable {
    let method: HTTPRequest.Method
    let segments: [String]
    let query: [String: String]
    let headers: HTTPFields
    let body: [UInt8]

    init(method: HTTPRequest.Method, segments: [String], query: [String: String], headers: HTTPFields = HTTPFields(),
         body: [UInt8] = []) {
        self.method = method
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Reads a Hummingbird request; 413 when the body is larger than `limit`, 400 for a query
    /// that is not percent-encoded UTF-8.
    static func read(_ request: Request, limit: Int) async throws(APIError) -> Call {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "The body is larger than \(limit) bytes")
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "The body is larger than \(limit) bytes")
        }
        guard let query = QueryString.parse(request.uri.query) else {
            throw APIError(.badRequest, "The query string is not valid percent-encoded UTF-8")
        }
        var segments: [String] = []
        for part in request.uri.path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = QueryString.decode(part) else { throw APIError(.badRequest, "The path is not valid") }
            segments.append(decoded)
        }
        return Call(method: request.method, segments: segments, query: query, headers: request.headers,
                    body: Array(buffer.readableBytesView))
    }

    func json(allowEmpty: Bool = false) throws(APIError) -> JSONBody {
        try JSONBody(body, allowEmpty: allowEmpty)
    }

    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.canonicalName == wanted }?.value
    }

    /// The value of a cookie from the `Cookie` header fields (`name=value; other=value`), if sent.
    func cookie(_ name: String) -> String? {
        for field in headers where field.name == .cookie {
            for pair in field.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}
