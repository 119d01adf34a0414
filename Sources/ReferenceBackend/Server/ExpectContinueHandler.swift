import Foundation
import NIOCore
import NIOHTTP1
import SDKSeams

/// Answers the `Expect` request header field (RFC 9110 §10.1.1) for the servers of this module,
/// in the HTTP/1 channel pipeline between NIO's HTTP/1 codec and Hummingbird's conversion to HTTP
/// types (it sees NIOHTTP1 parts, so it knows each request's HTTP version):
///
/// * `Expect: 100-continue` (the value matched without regard to case) on an HTTP/1.1 request:
///   the interim response `HTTP/1.1 100 Continue` is written and flushed as soon as the head is
///   read, before any of the body, so a client that holds the body back until told to send it
///   (libcurl waits up to 1 s) sends it at once. The request then goes on to the server as usual.
///   NIO's encoder writes a 1xx head alone (no body, no framing fields) and keeps the request open
///   for its final response.
/// * Not for HTTP/1.0: RFC 9110 §10.1.1 says to ignore the expectation there (and §15.2 forbids a
///   1xx to an HTTP/1.0 client).
/// * Not when the server will refuse the request from its head alone: with `maximumBodySize` set,
///   a declared `Content-Length` over it gets the server's final answer (413) without a 100 first,
///   as §10.1.1 allows; the server then reads and drops the body if the client sends it.
/// * Any other expectation (a member other than `100-continue` in the field's list): the request
///   is not passed on; it is answered `417 Expectation Failed` with a short text naming the header
///   field and the expectation, its body is read and dropped, and the connection goes on.
///
/// Responses go out in request order (HTTP/1.1 pipelining): a 100 or 417 owed to a request that
/// arrived while earlier ones still await their answers is written once those answers are done.
final class ExpectContinueHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What one request whose head has been read is still owed, oldest request first.
    private enum Owed {
        /// Its final response, which the server writes.
        case response
        /// A 100 Continue, then its final response from the server.
        case interim
        /// The 417 written here, listing the expectations not met.
        case refusal(String)
    }

    /// What the `Expect` field of a request head asks for.
    enum Expectation {
        /// Nothing to answer before the request is handled.
        case none
        /// A `100 Continue` now.
        case proceed
        /// A 417; the expectations that cannot be met.
        case unsupported([String])
    }

    private let maximumBodySize: Int?
    private var owed = CircularBuffer<Owed>()
    /// Set while the body of a refused request is being read and dropped.
    private var discarding = false

    /// - Parameter maximumBodySize: the size over which the server refuses a declared body from the
    ///   head alone (no 100 is sent for such a request); nil when it reads every body.
    init(maximumBodySize: Int?) {
        self.maximumBodySize = maximumBodySize
    }

    /// What the request head expects, by RFC 9110 §10.1.1.
    static func expectation(of head: HTTPRequestHead, maximumBodySize: Int?) -> Expectation {
        let members = head.headers[canonicalForm: "Expect"].filter { !$0.isEmpty }
        if members.isEmpty { return .none }
        let unsupported = members.filter { $0.lowercased() != "100-continue" }
        if !unsupported.isEmpty { return .unsupported(unsupported.map(String.init)) }
        if head.version.major == 1 && head.version.minor == 0 { return .none }
        if let limit = maximumBodySize, let declared = head.headers.first(name: "Content-Length").flatMap(Int.init), declared > limit {
            return .none
        }
        return .proceed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            switch Self.expectation(of: head, maximumBodySize: maximumBodySize) {
            case .none:
                owed.append(.response)
                context.fireChannelRead(data)
            case .proceed:
                owed.append(.interim)
                if owed.count == 1 { settle(context: context) }
                context.fireChannelRead(data)
            case .unsupported(let members):
                discarding = true
                owed.append(.refusal(members.map { "\"\($0)\"" }.joined(separator: ", ")))
                if owed.count == 1 { settle(context: context) }
            }
        case .body:
            if !discarding { context.fireChannelRead(data) }
        case .end:
            if discarding {
                discarding = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        context.write(data, promise: promise)
        if case .end = part, !owed.isEmpty {
            owed.removeFirst()
            settle(context: context)
        }
    }

    /// Writes what the oldest requests are owed from here, up to the first one that awaits the
    /// server's final response.
    private func settle(context: ChannelHandlerContext) {
        while let first = owed.first {
            switch first {
            case .response:
                return
            case .interim:
                owed[owed.startIndex] = .response
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
                return
            case .refusal(let members):
                owed.removeFirst()
                writeRefusal(members, context: context)
            }
        }
    }

    private func writeRefusal(_ members: String, context: ChannelHandlerContext) {
        let text = "The expectation \(members) in the Expect header field is not supported; only 100-continue is.\n"
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        // RFC 9110 §6.6.1: an origin server with a clock sends Date.
        headers.add(name: "Date", value: CivilTime.httpDate(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .expectationFailed, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

}
