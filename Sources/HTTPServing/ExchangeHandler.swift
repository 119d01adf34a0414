import CommonFormats
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The handler of a connection's pipeline, after NIO's HTTP/1.1 codec, in the servers of this
/// module: reads each request whole, hands it to the `ServerResponder` in a task that runs on the
/// connection's event loop (`EventLoopTaskExecutor`), and writes the answer with `Content-Length`
/// and `Date`.
///
/// * One request at a time, answers in request order (RFC 9112 §9.3.2): parts of requests that
///   arrive while one is being answered wait in a queue (reading pauses while it holds more than
///   a body's worth), and are taken up once that answer is written.
/// * `Expect` (RFC 9110 §10.1.1, decided by `Expectation.of`): `100-continue` on an HTTP/1.1
///   request gets `100 Continue` as soon as its head is taken up; any other expectation gets `417`
///   and the request does not reach the responder.
/// * A body over the responder's `maximumBodySize` is not read in: a declared `Content-Length`
///   over it is refused from the head (413, and no 100 first), a body that grows over it while
///   read is refused then; the rest of that body is read and dropped.
/// * A request that does not keep the connection alive (`close` among its `Connection` options,
///   or HTTP/1.0 without `keep-alive`, RFC 9112 §9.3), or a `CONNECT` (what follows it on the
///   connection is no HTTP this server reads): its answer is the last, says `Connection: close`,
///   and then the server closes. When the
///   client closes its side, the connection closes once every request it sent is answered. A
///   graceful shutdown closes an idle connection at once and a busy one after its answer (which
///   then says `Connection: close`). A connection with no request in hand and nothing read or
///   written for `idleTimeout` is closed.
/// * A request whose body has not ended `bodyDeadline` after its head was taken up gets the
///   responder's `refusal(timedOut:)` (408) with `Connection: close`, and the connection closes;
///   when its body was being dropped after a 413, the connection just closes.
/// * Bytes the HTTP parser rejects get a 400 with `Connection: close` (the answer of NIO's
///   `HTTPServerProtocolErrorHandler`, which this handler does not need in front of it), and the
///   connection closes; any other error closes it too.
/// * With a `RequestLog`, each answer is logged (`RequestLog.line`).
/// * The responder learns the connection's remote address (`respond(to:body:peer:)`).
/// * An answer whose `ending` is `.close` is the connection's last; one whose `ending` is `.drop`
///   is not written at all, and the connection closes (a test backend's faults, `ServerAnswer.Ending`).
///
/// The handler keeps the idle time and the 400 itself, rather than with NIO's `IdleStateHandler`
/// and `HTTPServerProtocolErrorHandler`: each of those sees every part of every answer go by,
/// and the idle handler makes a promise for each to learn when it is written. Together they were
/// 19,000 of the 150,000 instructions the server spent on a `GET /rps/clientSettings` (callgrind).
/// The responder is held as `any ServerResponder`, not as a generic parameter: a generic handler
/// made the runtime look up its type's metadata on every request.
final class ExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

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

    /// Request parts held while a request is being answered: at most this many bytes of bodies
    /// beyond the responder's limit before reading pauses.
    static var queueAllowance: Int { 64 * 1024 }

    private let responder: any ServerResponder
    private let log: RequestLog
    private let idleTimeout: TimeAmount
    private let bodyDeadline: BodyDeadline
    /// The close of a request whose body is late, scheduled when its head is taken up.
    private var bodyCheck: Scheduled<Void>?
    /// When a request was last read or an answer written (the event loop's clock); the idle check
    /// counts from it.
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    private var idleCheck: Scheduled<Void>?
    private var state = State.idle
    /// Parts of later requests that arrived while one was being answered, and their body bytes.
    private var queued = CircularBuffer<HTTPServerRequestPart>()
    private var queuedBytes = 0
    /// A read the channel asked for while the queue was full.
    private var readPaused = false
    /// Set while `takeQueued` takes parts from the queue.
    private var draining = false
    /// Set when the request asked to close (`Connection: close`) or the server is shutting down:
    /// close once the request in hand is answered, dropping any that wait.
    private var closeWhenAnswered = false
    /// Set when the client closed its side: close once every request it sent is answered.
    private var inputClosed = false
    private var quiescing = false
    private var executor: EventLoopTaskExecutor?
    /// The write of the last answer's end, which a close waits for.
    private var lastWrite: EventLoopFuture<Void>?
    /// The `Date` field's text and the second it is for.
    private var dateSecond: Int64 = .min
    private var dateText = ""

    init(
        responder: any ServerResponder, log: RequestLog, idleTimeout: TimeAmount, bodyDeadline: BodyDeadline = .standard
    ) {
        self.responder = responder
        self.log = log
        self.idleTimeout = idleTimeout
        self.bodyDeadline = bodyDeadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        executor = EventLoopTaskExecutor(context.eventLoop)
        if context.channel.isActive { startIdleChecks(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopIdleChecks()
    }

    func channelActive(context: ChannelHandlerContext) {
        if idleCheck == nil { startIdleChecks(context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopIdleChecks()
        context.fireChannelInactive()
    }

    private func startIdleChecks(context: ChannelHandlerContext) {
        lastActivity = context.eventLoop.now
        scheduleIdleCheck(at: lastActivity + idleTimeout, context: context)
    }

    private func stopIdleChecks() {
        idleCheck?.cancel()
        idleCheck = nil
        stopBodyCheck()
    }

    private func stopBodyCheck() {
        bodyCheck?.cancel()
        bodyCheck = nil
    }

    /// From a request's head: unless its body ends within `bodyDeadline`, answers 408 (or, when
    /// the body is being dropped after a refusal, writes nothing more) and closes the connection.
    private func startBodyCheck(
        for head: HTTPRequest, since start: ContinuousClock.Instant, context: ChannelHandlerContext
    ) {
        stopBodyCheck()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        bodyCheck = context.eventLoop.scheduleTask(in: bodyDeadline.amount) {
            let (handler, context) = bound.value
            handler.bodyCheck = nil
            guard context.channel.isActive else { return }
            switch handler.state {
            case .reading:
                handler.state = .discarding
                handler.closeWhenAnswered = true
                var answer = handler.responder.refusal(timedOut: head, after: handler.bodyDeadline)
                answer.head.headerFields[.connection] = "close"
                handler.write(answer, for: head, since: start, context: context)
                handler.closeDroppingWaiting(context: context)
            case .discarding:
                handler.closeDroppingWaiting(context: context)
            case .idle, .answering:
                break
            }
        }
    }

    /// Checks at `deadline` whether the connection has been idle for `idleTimeout`: closes it when
    /// no request is in hand, else looks again an idle timeout after the last activity.
    private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.idleCheck = nil
            guard context.channel.isActive else { return }
            let due = handler.lastActivity + handler.idleTimeout
            if due <= context.eventLoop.now {
                handler.closeIfIdle(context: context)
                handler.scheduleIdleCheck(at: context.eventLoop.now + handler.idleTimeout, context: context)
            } else {
                handler.scheduleIdleCheck(at: due, context: context)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = context.eventLoop.now
        let part = unwrapInboundIn(data)
        if case .answering = state {
            hold(part)
        } else {
            take(part, context: context)
        }
    }

    /// Takes up one part of the request in hand (or the head of the next).
    private func take(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch (part, state) {
        case (.head(let head), .idle):
            begin(head, context: context)
        case (.body(let part), .reading(let head, var body)):
            if body.readableBytes + part.readableBytes > responder.maximumBodySize {
                state = .discarding
                write(responder.refusal(oversized: head), for: head, since: .now, context: context)
            } else {
                body.writeImmutableBuffer(part)
                state = .reading(head, body)
            }
        case (.end, .reading(let head, let body)):
            stopBodyCheck()
            state = .answering
            answer(head, body: Array(body.readableBytesView), context: context)
        case (.end, .discarding):
            stopBodyCheck()
            state = .idle
            if closeWhenAnswered { closeDroppingWaiting(context: context) }
        case (.body, .discarding):
            break
        case (.head, _), (.body, _), (.end, _):
            // NIO's decoder delivers head, body..., end, one request after another.
            context.close(promise: nil)
        }
    }

    /// A request head: its expectation, its conversion to HTTP types, its declared length.
    private func begin(_ nioHead: HTTPRequestHead, context: ChannelHandlerContext) {
        let start = ContinuousClock.now
        // HTTP/1.0 without `Connection: keep-alive`, or `close` among the options of any
        // `Connection` field (RFC 9112 §9.3): this answer is the last.
        if !nioHead.isKeepAlive || nioHead.method == .CONNECT { closeWhenAnswered = true }
        let expectation = Expectation.of(nioHead, maximumBodySize: responder.maximumBodySize)
        if case .unsupported(let members) = expectation {
            state = .discarding
            writeRefusal(members, context: context)
            return
        }
        if case .proceed = expectation {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
        }
        let head: HTTPRequest
        do {
            head = try Self.request(nioHead, keepingTarget: responder.keepsRequestTarget)
        } catch {
            context.close(promise: nil)
            return
        }
        if let declared = head.headerFields[.contentLength].flatMap(Int.init), declared > responder.maximumBodySize {
            state = .discarding
            write(responder.refusal(oversized: head), for: head, since: start, context: context)
        } else {
            state = .reading(head, context.channel.allocator.buffer(capacity: 0))
        }
        startBodyCheck(for: head, since: start, context: context)
    }

    /// The head in HTTP types, as NIO's conversion makes it. That conversion parses every target
    /// as a URL (Foundation's `URLComponents`) to take the path out of an absolute-form target; an
    /// origin-form target (`/path?query`, RFC 9112 §3.2.1, what clients send to a server that is
    /// not a proxy) has no scheme, so the conversion keeps it as it is, and it is taken so here
    /// without parsing it.
    static func request(_ head: HTTPRequestHead, keepingTarget: Bool = false) throws -> HTTPRequest {
        guard head.uri.utf8.first == UInt8(ascii: "/") || keepingTarget else {
            return try HTTPRequest(head, secure: false, splitCookie: false)
        }
        return HTTPRequest(
            method: try HTTPRequest.Method(head.method), scheme: "http", authority: head.headers["Host"].first,
            path: head.uri, headerFields: HTTPFields(head.headers, splitCookie: false))
    }

    /// Queues a part that arrived while a request is being answered.
    private func hold(_ part: HTTPServerRequestPart) {
        queued.append(part)
        if case .body(let bytes) = part { queuedBytes += bytes.readableBytes }
    }

    /// Takes up queued parts until a request is with the responder again or the queue is empty;
    /// resumes a paused read once the queue has room.
    private func takeQueued(context: ChannelHandlerContext) {
        // An answer made at once, inside `take` below, comes back here: the loop below goes on.
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while let part = queued.popFirst() {
            if case .body(let bytes) = part { queuedBytes -= bytes.readableBytes }
            take(part, context: context)
            if case .answering = state { break }
        }
        if readPaused && !queueIsFull {
            readPaused = false
            context.read()
        }
    }

    private var queueIsFull: Bool {
        // Subtracted on this side: a limit near Int.max must not overflow.
        queuedBytes - Self.queueAllowance > responder.maximumBodySize || queued.count > 1_000
    }

    func read(context: ChannelHandlerContext) {
        if queueIsFull {
            readPaused = true
        } else {
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            inputClosed = true
            closeIfIdle(context: context)
        case is ChannelShouldQuiesceEvent:
            quiescing = true
            closeWhenAnswered = true
            closeIfIdle(context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            // Every answer is written whole in one turn of the event loop, so none is half written here.
            let head = HTTPResponseHead(
                version: .http1_1, status: .badRequest,
                headers: NIOHTTP1.HTTPHeaders([("Connection", "close"), ("Content-Length", "0")]))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.close(promise: nil)
    }

    /// Closes the connection when no request is in hand or waiting.
    private func closeIfIdle(context: ChannelHandlerContext) {
        guard case .idle = state, queued.isEmpty else { return }
        closeAfterLastWrite(context: context)
    }

    /// Hands the request to the responder in a task on this event loop, then writes its answer
    /// and takes up the requests that arrived meanwhile. The task starts at once, in this call
    /// (`Task.immediate`), instead of in a later turn of the loop; an answer that needs no wait is
    /// written before this returns.
    private func answer(_ head: HTTPRequest, body: [UInt8], context: ChannelHandlerContext) {
        let start = ContinuousClock.now
        let responder = self.responder
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let peer = context.channel.remoteAddress
        Task.immediate(executorPreference: executor) {
            let answer = await responder.respond(to: head, body: body, peer: peer)
            ExchangeHandler.finish(answer, for: head, since: start, bound)
        }
    }

    /// Writes the answer of the request in hand, then closes or takes up the requests that wait.
    /// The task that made the answer resumes on its executor, this event loop, so this runs at
    /// once; the hop is a safeguard for an executor that would resume it elsewhere.
    private static func finish(
        _ answer: ServerAnswer, for head: HTTPRequest, since start: ContinuousClock.Instant,
        _ bound: NIOLoopBound<(ExchangeHandler, ChannelHandlerContext)>
    ) {
        guard bound.eventLoop.inEventLoop else {
            return bound.eventLoop.execute { finish(answer, for: head, since: start, bound) }
        }
        let (handler, context) = bound.value
        handler.state = .idle
        switch answer.ending {
        case .asUsual: break
        case .close: handler.closeWhenAnswered = true
        case .drop:
            handler.closeDroppingWaiting(context: context)
            return
        }
        handler.write(answer, for: head, since: start, context: context)
        if handler.closeWhenAnswered {
            handler.closeDroppingWaiting(context: context)
        } else {
            handler.takeQueued(context: context)
            if handler.inputClosed { handler.closeIfIdle(context: context) }
        }
    }

    /// Writes `answer` (adding `Content-Length` and `Date`, and `Connection: close` when it is the
    /// connection's last: the request asked for it, or the server shuts down) and logs it.
    private func write(
        _ answer: ServerAnswer, for request: HTTPRequest, since start: ContinuousClock.Instant,
        context: ChannelHandlerContext
    ) {
        lastActivity = context.eventLoop.now
        var head = answer.head
        if !head.headerFields.contains(.contentLength) {
            head.headerFields[.contentLength] = String(answer.body.count)
        }
        head.headerFields[.date] = date()
        if quiescing || closeWhenAnswered { head.headerFields[.connection] = "close" }
        log.record(request, status: head.status.code, bytes: answer.body.count, since: start)
        var nioHead = HTTPResponseHead(head)
        if let reason = answer.reasonPhrase {
            nioHead.status = .custom(code: UInt(head.status.code), reasonPhrase: reason)
        }
        context.write(wrapOutboundOut(.head(nioHead)), promise: nil)
        // An answer to HEAD keeps the Content-Length a GET would get, and no body (RFC 9110 §9.3.2).
        if !answer.body.isEmpty && request.method != .head {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        lastWrite = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }

    /// Writes the 417 for expectations other than `100-continue`.
    private func writeRefusal(_ members: [String], context: ChannelHandlerContext) {
        let text =
            "The expectation \(members.map { "\"\($0)\"" }.joined(separator: ", ")) in the Expect header field is not supported; "
            + "only 100-continue is.\n"
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        headers.add(name: "Date", value: date())
        if quiescing || closeWhenAnswered { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .expectationFailed, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        lastWrite = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }

    /// Drops the requests that wait and closes the connection once the last answer is written.
    private func closeDroppingWaiting(context: ChannelHandlerContext) {
        queued.removeAll()
        queuedBytes = 0
        closeAfterLastWrite(context: context)
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
