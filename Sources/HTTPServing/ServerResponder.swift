import Hummingbird
import NIOCore

/// What the servers on `ServerHost` do with a request: the backend's router and `PlainHTTPServer`'s
/// closure. The server reads the whole request (`ExchangeHandler`) and hands it over with its body;
/// a body over `maximumBodySize` (declared in the head, or found while reading) is not read in but
/// refused at once with `refusal(oversized:)`.
package protocol ServerResponder: Sendable {
    /// The largest request body the responder reads, in bytes.
    var maximumBodySize: Int { get }

    /// The answer to a whole request. It cannot fail: every refusal is an answer.
    func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer

    /// The answer to a whole request from `peer` (the connection's remote address, nil when
    /// unknown); by default the answer of `respond(to:body:)`, whoever asks.
    func respond(to head: HTTPRequest, body: [UInt8], peer: SocketAddress?) async -> ServerAnswer

    /// The answer to a request whose body is larger than `maximumBodySize` (a 413).
    func refusal(oversized head: HTTPRequest) -> ServerAnswer

    /// The answer to a request whose body did not arrive within `deadline` (a 408; the server adds
    /// `Connection: close` and closes).
    func refusal(timedOut head: HTTPRequest, after deadline: BodyDeadline) -> ServerAnswer
    /// Whether the request's `path` is its target exactly as sent, absolute-form
    /// (`http://host/path`) and authority-form (`host:port`) included, rather than the path of it.
    var keepsRequestTarget: Bool { get }
}

extension ServerResponder {
    package var keepsRequestTarget: Bool { false }

    package func respond(to head: HTTPRequest, body: [UInt8], peer: SocketAddress?) async -> ServerAnswer {
        await respond(to: head, body: body)
    }

    /// A plain-text 408 that says how long the body was awaited.
    package func refusal(timedOut head: HTTPRequest, after deadline: BodyDeadline) -> ServerAnswer {
        var fields = HTTPFields()
        fields[.contentType] = "text/plain; charset=utf-8"
        return ServerAnswer(
            .requestTimeout, headers: fields,
            body: Array("The request body did not arrive within \(deadline.seconds) s\n".utf8))
    }
}

/// An answer as the servers write it: the response head (status and fields) and the whole body.
/// The server adds `Content-Length` (unless the head has it) and `Date` (RFC 9110 §6.6.1).
package struct ServerAnswer: Sendable {
    package var head: HTTPResponse
    package var body: [UInt8]
    /// A reason phrase to send as it is, for a status whose standard phrase the HTTP/1 encoder
    /// would otherwise put in its place (the `milagro-oss` profile's `401 Wrong PIN.`).
    package var reasonPhrase: String?
    /// What becomes of the connection with this answer (`Ending`): kept as the request asked, closed
    /// once the answer is written, or closed at once with nothing of the answer written.
    package var ending = Ending.asUsual

    /// What becomes of the connection with an answer. A fault a test backend serves on purpose (a
    /// body cut short of its `Content-Length`, a connection dropped before any answer) takes the
    /// last two; every other answer keeps the first.
    package enum Ending: Sendable, Hashable {
        /// Kept open or closed as the request and the server's state say.
        case asUsual
        /// Closed once the answer is written (the answer says `Connection: close`).
        case close
        /// Closed at once: nothing of the answer is written (the client sees the connection end
        /// with no answer).
        case drop
    }

    package init(_ status: HTTPResponse.Status, headers: HTTPFields = HTTPFields(), body: [UInt8] = []) {
        head = HTTPResponse(status: status, headerFields: headers)
        self.body = body
    }
}
