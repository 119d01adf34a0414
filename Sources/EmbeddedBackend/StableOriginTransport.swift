import CommonFormats
import FlowRecording
import MPinSDK
import ReferenceBackend
import SDKSeams

/// Shows a server that listens on a changing address (the embedded backend on a free port) under a
/// fixed one, so that its recordings do not depend on the port.
///
/// Requests to `stableOrigin` go to `actualOrigin`; in responses the actual origin is written back
/// as the stable one (body and header values, `Content-Length` adjusted; `OriginRewrite`), and, when `clock` is
/// given, the `Date` header is rewritten to that clock's time (the server stamps the wall clock,
/// the flow runs on a frozen one).
package struct StableOriginTransport: HTTPTransport {
    package let base: any HTTPTransport
    package let stableOrigin: String
    package let actualOrigin: String
    package let clock: (any SDKClock)?

    package init(base: any HTTPTransport, stableOrigin: String, actualOrigin: String, clock: (any SDKClock)? = nil) {
        self.base = base
        self.stableOrigin = stableOrigin
        self.actualOrigin = actualOrigin
        self.clock = clock
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let outward = OriginRewrite(from: stableOrigin, to: actualOrigin)
        let back = OriginRewrite(from: actualOrigin, to: stableOrigin)
        var outgoing = request
        outgoing.url = outward.apply(request.url)
        outgoing.body = outward.apply(request.body)
        var response = try await base.send(outgoing)
        let body = back.apply(response.body)
        var headers = HTTPHeaders()
        for field in response.headers {
            var value = back.apply(field.value)
            switch field.name.lowercased() {
            case "content-length" where body.count != response.body.count: value = String(body.count)
            case "date": if let clock { value = CivilTime.httpDate(milliseconds: clock.nowMilliseconds()) }
            // The milagro-oss profile's Etag is the SHA-1 of the body: of the body as rewritten.
            case "etag" where body != response.body: value = TornadoEtag.of(body)
            default: break
            }
            headers.append(name: field.name, value: value)
        }
        response.body = body
        response.headers = headers
        return response
    }
}
