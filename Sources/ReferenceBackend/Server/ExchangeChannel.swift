import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The pipeline of each connection the servers of this module accept, for HummingbirdCore's
/// server: NIO's HTTP/1.1 codec with its protocol-error handler (a 400 for bytes that are not
/// HTTP), an `IdleStateHandler` (`idleTimeout` without reads or writes), and the
/// `ExchangeHandler`, which answers each whole request through `responder` on the connection's
/// event loop. The connection's task only waits for it to close.
struct ExchangeChannel<Responder: ServerResponder>: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    let responder: Responder
    let log: RequestLog
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
            try pipeline.addHandler(IdleStateHandler(allTimeout: idleTimeout))
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
