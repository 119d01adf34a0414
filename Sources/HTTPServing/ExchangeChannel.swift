import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The pipeline of each connection the servers of this module accept, for HummingbirdCore's
/// server: NIO's HTTP/1.1 codec and the `ExchangeHandler`, which answers each whole request
/// through `responder` on the connection's event loop, answers bytes that are not HTTP with a
/// 400, closes a connection idle for `idleTimeout`, and answers 408 to a body not in by `bodyDeadline`. The connection's task only waits for it
/// to close.
///
/// The codec is NIO's request decoder and response encoder, set up on their own rather than by
/// `configureHTTPServerPipeline`, which pairs them so that the encoder drops the body of every
/// answer to `CONNECT`. RFC 9112 §6.3 takes the body away only from a 2xx answer to `CONNECT`
/// (the tunnel starts after its head); a refusal (the proxy's 405) carries its reason in a body.
/// `ExchangeHandler` leaves out the body of an answer to `HEAD` itself.
///
/// The codec goes without NIO's check of outgoing header fields: every answer's fields are HTTP
/// types' `HTTPFields`, whose names are checked tokens and whose values have any byte not allowed
/// in a field turned into a space when they are made, so the check could never fail.
struct ExchangeChannel<Responder: ServerResponder>: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    let responder: Responder
    let log: RequestLog
    let idleTimeout: TimeAmount
    var bodyDeadline = BodyDeadline.standard

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandlers([
                HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
            ])
            try pipeline.addHandler(
                ExchangeHandler(
                    responder: responder, log: log, idleTimeout: idleTimeout,
                    bodyDeadline: bodyDeadline))
            return Value(channel: channel)
        }
    }

    /// Waits until the connection closes; a cancelled server task closes it.
    func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}
