import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The plumbing shared by the workbench's servers (the reference backend, `PlainHTTPServer`): HummingbirdCore's HTTP/1.1 server on
/// `host:port` (0 for a free port) in its own service group, started in a task, returned once it
/// listens. `name` says which server a `ServerStartError` is about.
///
/// Each connection's pipeline (`ExchangeChannel`) reads whole requests and answers them through
/// the `ServerResponder` on the connection's event loop; both servers answer `Expect:
/// 100-continue` with `100 Continue` and other expectations with 417 (`Expectation`, RFC 9110
/// §10.1.1); no 100 is sent for a declared body over the responder's limit; a body not in by
/// `bodyDeadline` gets a 408 and the connection closes (`BodyDeadline`). With
/// `logRequests`, each request gets a line in `logger` (`RequestLog`).
package enum ServerHost {
    package static func start(
        _ responder: some ServerResponder, name: String, host: String, port: Int, logger: Logger,
        logRequests: Bool = false, bodyDeadline: BodyDeadline = .standard
    ) async throws -> (task: Task<Void, any Error>, group: ServiceGroup, port: Int) {
        let ready = ReadySignal()
        let channel = ExchangeChannel(
            responder: responder, log: RequestLog(logger: logger, enabled: logRequests), idleTimeout: .seconds(30),
            bodyDeadline: bodyDeadline)
        let server = channel.server(
            configuration: ServerConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in ready.resolve(.success(channel.localAddress?.port ?? 0)) },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
                ready.resolve(
                    .failure(
                        ServerStartError(
                            server: name, address: baseURL(host: host, port: port),
                            reason: "it stopped before it listened")))
            } catch {
                ready.resolve(
                    .failure(
                        ServerStartError(
                            server: name, address: baseURL(host: host, port: port),
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
    package static func logger(_ label: String, _ level: Logger.Level) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }

    /// `http://host:port`, with brackets around an IPv6 host.
    package static func baseURL(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// Resolves once with the bound port or the failure to bind.
private final class ReadySignal: Sendable {
    private struct State {
        var result: Result<Int, any Error>?
        var waiter: CheckedContinuation<Int, any Error>?
    }

    private let state = Mutex(State())

    func resolve(_ value: Result<Int, any Error>) {
        let continuation: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = value
            defer { state.waiter = nil }
            return state.waiter
        }
        continuation?.resume(with: value)
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
