import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A small HTTP/1.1 server that hands every request to one closure and sends back what it returns:
/// the server behind `mpin-workbench serve --cassette` and `proxy`, on the same plumbing as the
/// reference backend (`ServerHost`).
///
/// ```swift
/// let server = try await PlainHTTPServer.start(port: 0) { request in
///     .init(status: 200, headers: [.init("Content-Type", "text/plain")], body: Array("hi".utf8))
/// }
/// // … clients talk to server.baseURL …
/// await server.stop()
/// ```
public final class PlainHTTPServer: Sendable {
    /// A header field, as received or to send.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A request as received: the method, the request target (`/path?query`, as sent; the path of
    /// an absolute-form target unless the server keeps targets), the header fields in order and the body.
    public struct Request: Sendable, Hashable {
        public var method: String
        public var target: String
        public var headers: [Field]
        public var body: [UInt8]
    }

    /// The answer to send. `Content-Length` is set by the server (a `Content-Length` field the
    /// handler gives keeps its place but gets the body's real length). An answer that cannot go on the
    /// wire (a status outside `statusRange`, more than `maximumHeaderFields` fields, a field name
    /// that is not a token) is replaced by a `500` whose text says why, so no answer can stop the
    /// server.
    public struct Response: Sendable, Hashable {
        public var status: Int
        public var headers: [Field]
        public var body: [UInt8]
        public init(status: Int, headers: [Field] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    public typealias Handler = @Sendable (Request) async -> Response

    /// The statuses an answer may have: three digits (RFC 9110 §15).
    public static let statusRange = 100...999
    /// The most header fields an answer may have.
    public static let maximumHeaderFields = 1_000

    /// The bound port.
    public let port: Int
    /// `http://host:port`.
    public let baseURL: String
    private let task: Task<Void, any Error>
    private let group: ServiceGroup

    /// Starts listening and returns once it does.
    /// - Parameters:
    ///   - host, port: where to listen (port 0: a free one).
    ///   - maximumBodySize: larger request bodies are answered 413 without calling `handler` (from
    ///     the head when `Content-Length` declares one, with no `100 Continue` sent).
    ///   - logLevel: the server's own log messages at this level and above go to standard error.
    ///   - logger: where the server logs instead, at the logger's own level (`logLevel` is then unused).
    ///   - logRequests: one line per request at `info` (method, path, status, duration, body bytes).
    ///   - name: what a `ServerStartError` calls this server.
    ///   - bodyTimeout: a request whose body has not ended this long after its head is answered
    ///     408 without calling `handler`, and its connection closed (`BodyDeadline`).
    ///   - keepsRequestTargets: each request's `target` is its target exactly as sent: an
    ///     absolute-form `http://host/path`, `CONNECT`'s `host:port` (else their path).
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, maximumBodySize: Int = 1 << 20,
        logLevel: Logger.Level = .critical, logger: Logger? = nil, logRequests: Bool = false,
        name: String = "HTTP server", bodyTimeout: BodyDeadline = .standard, keepsRequestTargets: Bool = false,
        handler: @escaping Handler
    ) async throws -> PlainHTTPServer {
        let responder = ClosureResponder(
            maximumBodySize: maximumBodySize, keepsRequestTarget: keepsRequestTargets, handler: handler)
        let (task, group, bound) = try await ServerHost.start(
            responder, name: name,
            host: host, port: port,
            logger: logger ?? ServerHost.logger("mpin-workbench.plain-server", logLevel),
            logRequests: logRequests, bodyDeadline: bodyTimeout)
        return PlainHTTPServer(
            port: bound, baseURL: ServerHost.baseURL(host: host, port: bound), task: task, group: group)
    }

    private init(port: Int, baseURL: String, task: Task<Void, any Error>, group: ServiceGroup) {
        self.port = port
        self.baseURL = baseURL
        self.task = task
        self.group = group
    }

    /// Stops listening (requests in progress are answered) and waits until the server has shut down.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Waits until the server stops.
    public func wait() async {
        _ = await task.result
    }
}

/// Hands the whole request to the handler and checks its answer before it goes on the wire.
private struct ClosureResponder: ServerResponder {
    let maximumBodySize: Int
    let keepsRequestTarget: Bool
    let handler: PlainHTTPServer.Handler

    func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer {
        let fields = head.headerFields.map { PlainHTTPServer.Field($0.name.rawName, $0.value) }
        let plain = PlainHTTPServer.Request(
            method: head.method.rawValue, target: head.path ?? "", headers: fields, body: body)
        return Self.answer(await handler(plain))
    }

    func refusal(oversized head: HTTPRequest) -> ServerAnswer {
        Self.answer(
            .init(
                status: 413, headers: [.init("Content-Type", "text/plain")],
                body: Array("The body is larger than \(maximumBodySize) bytes\n".utf8)))
    }

    static func answer(_ answer: PlainHTTPServer.Response) -> ServerAnswer {
        func refused(_ reason: String) -> ServerAnswer {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; charset=utf-8"
            return ServerAnswer(
                .internalServerError, headers: fields, body: Array("The answer cannot be sent: \(reason)\n".utf8))
        }
        guard PlainHTTPServer.statusRange.contains(answer.status) else {
            return refused("status \(answer.status) is not an HTTP status (100 to 999)")
        }
        guard answer.headers.count <= PlainHTTPServer.maximumHeaderFields else {
            return refused("\(answer.headers.count) header fields, more than \(PlainHTTPServer.maximumHeaderFields)")
        }
        var fields = HTTPFields()
        for field in answer.headers {
            guard let name = HTTPFields.Element.Name(field.name) else {
                return refused("\(String(reflecting: field.name)) is not a header field name")
            }
            guard !field.value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                return refused("the value of \(field.name) has a character no header value may hold (CR, LF, NUL, ...)")
            }
            if name == .contentLength {
                // The body's real length, where the handler put the field (once): a wrong length
                // would desynchronise the connection.
                if !fields.contains(.contentLength) {
                    fields.append(HTTPFields.Element(name: name, value: String(answer.body.count)))
                }
                continue
            }
            fields.append(HTTPFields.Element(name: name, value: field.value))
        }
        return ServerAnswer(.init(code: answer.status), headers: fields, body: answer.body)
    }
}
