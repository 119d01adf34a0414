import MilagroProtocol
import SDKSeams

/// A request as a fault (and the exchange observer) sees it: the method, the URL the client asked
/// for (the backend's base URL and the request target), the decoded path and query, the header
/// fields in order, the body, and the endpoint of the table it reaches.
package struct FaultRequest: Sendable, Hashable {
    package var method: String
    /// `http://host:port` and the target as sent.
    package var url: String
    /// The request target as sent (`/rps/pass1`, `/dta2/clientSecret?…`).
    package var target: String
    /// The path's segments, percent-decoded (empty when the path is not valid).
    package var segments: [String]
    /// The query, decoded (empty when it is not valid).
    package var query: [String: String]
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The endpoint of `Endpoint`'s table the path reaches, if any.
    package var endpoint: Endpoint?

    package init(
        method: String, url: String, target: String, segments: [String], query: [String: String],
        headers: HTTPHeaders, body: [UInt8], endpoint: Endpoint?
    ) {
        self.method = method
        self.url = url
        self.target = target
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
        self.endpoint = endpoint
    }

    /// The segment after the endpoint's own path (the M-Pin ID, a D-TA's operation), if any.
    package var tail: String? { endpoint?.tailSegment(of: segments) }
}
