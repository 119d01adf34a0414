import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes
import SDKSeams

/// The last handler of a connection's pipeline in the servers of this module: reads each request
/// whole, hands it to the `ServerResponder` in a task that runs on the connection's event loop
/// (`EventLoopTaskExecutor`), and writes the answer with `Content-Length` and `Date`.
///
/// * One request at a time: NIO's pipelining handler, earlier in the pipeline, holds a later
///   request back until the answer to the one before is written (RFC 9112 §9.3.2).
/// * A body over the responder's `maximumBodySize` is not read in: a declared `Content-Length`
///   over it is refused from the head (413, before any body arrives), a body that grows over it
///   while read is refused then; the rest of that body is read and dropped.
/// * `Connection: close` on a request: its answer is the last, then the server closes its side.
///   When the client closes its side, the connection closes once the request in hand is answered.
/// * A request the HTTP parser rejects gets NIO's 400 (`HTTPServerProtocolErrorHandler`) and the
///   connection closes; any other error closes it too.
/// * With a `RequestLog`, each answer is logged (`RequestLog.line`).
final class ExchangeHandler<Responder: ServerResponder>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        /// Between requests.
        case idle
        /// Reading a request's body.
        case reading(HTTPRequest, ByteBuffer)
        /// The request was refused already; its body is dropped until its end.
        case discarding
        /// The whole request is with the responder.
        case answering
    }

    private let responder: Responder
    private let log: RequestLog
    private var state = State.idle
    /// Set when the client closed its side or asked to close: close once the request in hand is answered.
    private var closeWhenAnswered = false
    private var executor: EventLoopTaskExecutor?
    /// The write of the last answer's end, which a close waits for.
    private var lastWrite: EventLoopFuture<Void>?
    /// The `Date` field's text and the second it is for.
    private var dateSecond: Int64 = .min
    private var dateText = ""

    init(responder: Responder, log: RequestLog) {
        self.responder = responder
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        executor = EventLoopTaskExecutor(context.eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .idle):
            let start = ContinuousClock.now
            if head.headerFields[.connection]?.lowercased() == "close" { closeWhenAnswered = true }
            if let declared = head.headerFields[.contentLength].flatMap(Int.init), declared > responder.maximumBodySize {
                state = .discarding
                write(responder.refusal(oversized: head), for: head, since: start, context: context)
            } else {
                state = .reading(head, context.channel.allocator.buffer(capacity: 0))
            }
        case (.body(let part), .reading(let head, var body)):
            if body.readableBytes + part.readableBytes > responder.maximumBodySize {
                state = .discarding
                write(responder.refusal(oversized: head), for: head, since: .now, context: context)
            } else {
                body.writeImmutableBuffer(part)
                state = .reading(head, body)
            }
        case (.end, .reading(let head, let body)):
            state = .answering
            answer(head, body: Array(body.readableBytesView), context: context)
        case (.end, .discarding):
            state = .idle
            if closeWhenAnswered { closeAfterLastWrite(context: context) }
        case (.body, .discarding):
            break
        case (.head, _), (.body, _), (.end, _):
            // NIO's decoder and pipelining handler deliver head, body..., end, one request at a time.
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            closeWhenAnswered = true
            if case .idle = state { closeAfterLastWrite(context: context) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Hands the request to the responder in a task on this event loop, then writes its answer.
    private func answer(_ head: HTTPRequest, body: [UInt8], context: ChannelHandlerContext) {
        let start = ContinuousClock.now
        let responder = self.responder
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        Task(executorPreference: executor) {
            let answer = await responder.respond(to: head, body: body)
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.state = .idle
                handler.write(answer, for: head, since: start, context: context)
                if handler.closeWhenAnswered { handler.closeAfterLastWrite(context: context) }
            }
        }
    }

    /// Writes `answer` (adding `Content-Length` and `Date`) and logs it.
    private func write(_ answer: ServerAnswer, for request: HTTPRequest, since start: ContinuousClock.Instant,
                       context: ChannelHandlerContext) {
        var head = answer.head
        if !head.headerFields.contains(.contentLength) {
            head.headerFields[.contentLength] = String(answer.body.count)
        }
        head.headerFields[.date] = date()
        log.record(request, status: head.status.code, bytes: head.headerFields[.contentLength].flatMap(Int.init), since: start)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: answer.body))), promise: nil)
        }
        lastWrite = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }

    /// Closes the connection once the last answer is written (at once when there was none).
    private func closeAfterLastWrite(context: ChannelHandlerContext) {
        let channel = context.channel
        guard let lastWrite else { return channel.close(promise: nil) }
        lastWrite.whenComplete { _ in channel.close(promise: nil) }
    }

    /// The IMF-fixdate of the current second, made once per second.
    private func date() -> String {
        let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let second = milliseconds / 1000
        if second != dateSecond {
            dateSecond = second
            dateText = CivilTime.httpDate(milliseconds: second * 1000)
        }
        return dateText
    }
}
