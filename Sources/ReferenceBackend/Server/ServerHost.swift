import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1
import ServiceLifecycle

/// The Hummingbird plumbing shared by the servers of this module: an HTTP/1.1 application on
/// `host:port` (0 for a free port) in its own service group, started in a task, returned once it
/// listens. `name` says which server a `ServerStartError` is about.
///
/// Each connection's pipeline has an `ExpectContinueHandler`, so both servers answer
/// `Expect: 100-continue` with `100 Continue` and other expectations with 417 (RFC 9110 §10.1.1).
/// A responder that refuses oversized bodies from the head alone (`RefusesLargeBodiesFromTheHead`)
/// gets no 100 sent for such a request. With `logRequests`, each request gets a line in `logger`
/// (`RequestLogResponder`).
enum ServerHost {
    static func start<Responder: HTTPResponder>(_ responder: Responder, name: String, host: String, port: Int, logger: Logger,
                                                logRequests: Bool = false) async throws
        -> (task: Task<Void, any Error>, group: ServiceGroup, port: Int) where Responder.Context == BasicRequestContext {
        let ready = ReadySignal()
        let limit = (responder as? any RefusesLargeBodiesFromTheHead)?.maximumBodySize
        let app = Application(
            responder: RequestLogResponder(wrapped: responder, enabled: logRequests),
            server: HTTPServerBuilder { respond in
                ExpectContinueHTTP1Channel(http1: HTTP1Channel(responder: respond, configuration: .init(idleTimeout: .seconds(30))),
                                           maximumBodySize: limit)
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in ready.resolve(.success(channel.localAddress?.port ?? 0)) },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
                ready.resolve(.failure(ServerStartError(server: name, address: baseURL(host: host, port: port),
                                                        reason: "it stopped before it listened")))
            } catch {
                ready.resolve(.failure(ServerStartError(server: name, address: baseURL(host: host, port: port),
                                                        reason: String(describing: error))))
                throw error
            }
        }
        do {
            return (task, group, try await ready.value())
        } catch {
            task.cancel()
            throw error
        }
    }

    /// A logger with swift-log's handler (standard error unless the program chose another) at `level`.
    static func logger(_ label: String, _ level: Logger.Level) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }

    /// `http://host:port`, with brackets around an IPv6 host.
    static func baseURL(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// A responder that answers a request whose declared `Content-Length` is over `maximumBodySize`
/// from its head alone (413), without reading the body: no `100 Continue` is sent for such a
/// request (RFC 9110 §10.1.1).
protocol RefusesLargeBodiesFromTheHead {
    var maximumBodySize: Int { get }
}

/// Hummingbird's HTTP/1 channel with an `ExpectContinueHandler` added to each connection's
/// pipeline just before the conversion of NIOHTTP1 parts to HTTP types (Hummingbird's
/// `additionalChannelHandlers` come after it, where a request's HTTP version is no longer known).
private struct ExpectContinueHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel
    let maximumBodySize: Int?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(ExpectContinueHandler(maximumBodySize: maximumBodySize), position: .before(codec))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// Resolves once with the bound port or the failure to bind.
private final class ReadySignal: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Int, any Error>?
    private var waiter: CheckedContinuation<Int, any Error>?

    func resolve(_ value: Result<Int, any Error>) {
        let continuation: CheckedContinuation<Int, any Error>? = lock.withLock {
            guard result == nil else { return nil }
            result = value
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(with: value)
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = lock.withLock {
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
