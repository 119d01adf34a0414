import SDKSeams

/// `PlainHTTPServer`'s messages in the SDK seams' terms, the one conversion between the two: what
/// a handler that forwards a request (`proxy`) or answers from a cassette (`serve --cassette`)
/// passes between the server and FlowRecording, which speaks `HTTPHeaders` and `HTTPResponse`.
extension PlainHTTPServer.Request {
    /// The request's header fields, in order, as the seams hold them.
    package var httpHeaders: HTTPHeaders {
        HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
    }
}

extension PlainHTTPServer.Response {
    /// The answer that sends `response`: its status, header fields in order and body (timings are
    /// the transport's, not sent).
    package init(_ response: HTTPResponse) {
        self.init(
            status: response.status, headers: response.headers.fields.map { .init($0.name, $0.value) },
            body: response.body)
    }
}
