import CommonFormats
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
    /// Whether the client is on this machine: a loopback peer, and no proxy's field saying that
    /// it forwards the request for another (`BackendResponder.cameThroughProxy`). The operator
    /// endpoints answer only such clients unless `BackendConfiguration.allowsRemoteAdmin`.
    var fromLoopback = false
    /// Who sent the request, for the per-client quotas and rate limits (`ClientAddress`).
    var client = ClientAddress.unknown

    init(
        method: HTTPRequest.Method, segments: [String], query: [String: String], headers: HTTPFields = HTTPFields(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Reads a whole request; 400 for a path or query that is not percent-encoded UTF-8.
    ///
    /// A path segment is percent-decoded with `+` kept as it is, as Tornado decodes the open-source
    /// server's path arguments (`url_unescape(plus=False)`); in the query `+` is a space. The target
    /// is split on its UTF-8 bytes: split by `Character`, an M-Pin ID in the path (a few hundred hex
    /// digits) cost about 30,000 instructions per request in grapheme breaking.
    static func read(_ head: HTTPRequest, body: [UInt8]) throws(APIError) -> Call {
        let (path, rawQuery) = split(target: head.path ?? "")
        guard let query = QueryString.parse(rawQuery.map(String.init)) else {
            throw APIError(.badRequest, "The query string is not valid percent-encoded UTF-8")
        }
        var segments: [String] = []
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            guard let decoded = QueryString.decode(Substring(part), plusIsSpace: false) else {
                throw APIError(.badRequest, "The path is not valid")
            }
            segments.append(decoded)
        }
        return Call(method: head.method, segments: segments, query: query, headers: head.headerFields, body: body)
    }

    /// The path and the query (after `?`, up to a `#`) of a request target (RFC 9112 §3.2): of
    /// the origin form (`/rps/pass1?x=1`), or of the absolute form (`http://host:8005/rps/pass1`,
    /// the path after the authority). The path is `/` when the target has none.
    static func split(target: String) -> (path: Substring, query: Substring?) {
        let parts = URLText.parts(target)
        return (parts.path.isEmpty ? "/" : parts.path, parts.query)
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
        headers.lazy.filter { $0.name == .cookie }.compactMap { Cookies.value(named: name, inCookie: $0.value) }.first
    }
}
