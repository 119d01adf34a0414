/// One HTTP response as a transport returns it: status, header fields in order and the exact body bytes.
///
/// Any status is a response, 401 and 5xx included; only a failure to get a response at all is a
/// `TransportError`.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Per-phase timings, when the transport measured them (live transports do, replay does not).
    public var timings: HTTPTimings?

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], timings: HTTPTimings? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.timings = timings
    }

    /// The body as UTF-8 text, when it is valid UTF-8.
    public var bodyText: String? {
        String(validating: body, as: UTF8.self)
    }
}
