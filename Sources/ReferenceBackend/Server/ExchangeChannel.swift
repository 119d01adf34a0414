import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The pipeline of each connection the servers of this module accept, for HummingbirdCore's
/// server: NIO's HTTP/1.1 codec with its pipelining and protocol-error handlers, the
/// `ExpectContinueHandler`, the conversion to HTTP types, HummingbirdCore's connection state
/// handler (closes a connection idle for `idleTimeout`, and idle ones at a graceful shutdown), and
/// the `ExchangeHandler`, which answers each whole request through `responder` on the connection's
/// event loop. The connection's task only waits for it to close.
struct ExchangeChannel<Responder: ServerResponder>: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    let responder: Responder
    let log: RequestLog
    let idleTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
            try pipeline.addHandler(ExpectContinueHandler(maximumBodySize: responder.maximumBodySize))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            try pipeline.addHandler(ExchangeHandler(responder: responder, log: log))
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
