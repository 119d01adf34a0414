import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The Hummingbird plumbing shared by the servers of this module: an HTTP/1.1 application on
/// `host:port` (0 for a free port) in its own service group, started in a task, returned once it
/// listens. `name` says which server a `ServerStartError` is about.
enum ServerHost {
    static func start<Responder: HTTPResponder>(_ responder: Responder, name: String, host: String, port: Int, logger: Logger) async throws
        -> (task: Task<Void, any Error>, group: ServiceGroup, port: Int) where Responder.Context == BasicRequestContext {
        let ready = ReadySignal()
        let app = Application(
            responder: responder,
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
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

    /// `http://host:port`, with brackets around an IPv6 host.
    static func baseURL(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
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
