/// The HTTP seam: the only way the SDK talks to a network (the Milagro core's `IHttpRequest`).
///
/// Implementations: the libcurl transport for live traffic, recording and replay transports, and
/// scripted fakes in tests. A transport must return every HTTP status as a response (redirects are
/// not followed, 401 challenges are not answered) and throw only when no response arrived.
/// Calls may come from several tasks at once.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
