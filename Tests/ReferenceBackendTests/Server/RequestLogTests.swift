import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import ReferenceBackend

/// The request log of both servers: one line per request (method, path, status, duration, body
/// bytes) through the logger given, only when asked for and only at `info` and below.
@Suite struct RequestLogTests {
    @Test func oneLinePerRequestOfTheBackend() async throws {
        let log = CapturedLog()
        let backend = try await ReferenceBackend.start(
            BackendConfiguration(seed: "log"), logger: log.logger(.info), logRequests: true)
        let responses = try await exchange(
            port: backend.port,
            [
                "GET /rps/clientSettings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "GET /nothing/here?regOTT=secret HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            ],
            stop: backend.stop)
        let (settings, missing) = (responses[0], responses[1])
        #expect(settings.statusLine.hasPrefix("HTTP/1.1 200") && missing.statusLine.hasPrefix("HTTP/1.1 404"))

        let requests = log.messages.filter { $0.level == .info && $0.text.hasPrefix("GET ") }.map(\.text)
        #expect(requests.count == 2, "\(log.messages)")
        let first = try #require(requests.first)
        #expect(
            first.hasPrefix("GET /rps/clientSettings 200 ") && first.hasSuffix(" ms \(settings.body.count) bytes"),
            "\(first)")
        let second = try #require(requests.last)
        #expect(
            second.hasPrefix("GET /nothing/here 404 ") && second.hasSuffix(" ms \(missing.body.count) bytes"),
            "\(second)")
        #expect(!log.messages.contains { $0.text.contains("secret") }, "the query is not logged")
    }

    @Test func theCassetteServersRequestsAreLoggedToo() async throws {
        let log = CapturedLog()
        let server = try await PlainHTTPServer.start(logger: log.logger(.info), logRequests: true) { request in
            .init(status: 201, body: Array("\(request.method) \(request.target)".utf8))
        }
        let responses = try await exchange(
            port: server.port, ["POST /a/b?c=d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nhi"],
            stop: server.stop)
        #expect(responses.first?.text == "POST /a/b?c=d")
        let requests = log.messages.filter { $0.text.hasPrefix("POST ") }.map(\.text)
        #expect(
            requests.count == 1 && requests.first?.hasPrefix("POST /a/b 201 ") == true
                && requests.first?.hasSuffix(" ms 13 bytes") == true, "\(requests)")
    }

    /// A request in absolute form (as a client sends it to a proxy) is logged by its path too,
    /// without the scheme, the authority or the query. (The conversion to HTTP types already moves
    /// the scheme and authority out of the path; the log then drops the query.)
    @Test func anAbsoluteFormTargetIsLoggedByItsPath() async throws {
        let log = CapturedLog()
        let server = try await PlainHTTPServer.start(logger: log.logger(.info), logRequests: true) { _ in
            .init(status: 200)
        }
        _ = try await exchange(
            port: server.port,
            ["GET http://127.0.0.1:8005/rps/pass1?regOTT=secret HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"],
            stop: server.stop)
        let lines = log.messages.filter { $0.text.hasPrefix("GET ") }.map(\.text)
        #expect(lines.count == 1 && lines.first?.hasPrefix("GET /rps/pass1 200 ") == true, "\(lines)")
    }

    /// Without `logRequests`, or with the logger above `info`, no request is logged.
    @Test(arguments: [(false, Logger.Level.trace), (true, .notice)])
    func quietUnlessAsked(logRequests: Bool, level: Logger.Level) async throws {
        let log = CapturedLog()
        let backend = try await ReferenceBackend.start(
            BackendConfiguration(seed: "log"), logger: log.logger(level), logRequests: logRequests)
        _ = try await exchange(
            port: backend.port, ["GET /rps/clientSettings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"], stop: backend.stop)
        #expect(!log.messages.contains { $0.text.contains("/rps/clientSettings") }, "\(log.messages)")
    }

    /// Sends `requests` on one connection to 127.0.0.1:`port`, reads each response (30 s at most),
    /// then `stop`s the server, also when an exchange fails.
    func exchange(port: Int, _ requests: [String], stop: () async -> Void) async throws -> [RawConnection.Response] {
        var responses: [RawConnection.Response] = []
        do {
            let connection = try RawConnection(port: port)
            for request in requests {
                try await connection.send(request)
                responses.append(try await connection.readResponse(within: 30))
            }
        } catch {
            await stop()
            throw error
        }
        await stop()
        return responses
    }
}

/// A swift-log handler that keeps every message, for tests that read a server's log.
final class CapturedLog: Sendable {
    struct Message: CustomStringConvertible {
        var level: Logger.Level
        var text: String
        var description: String { "\(level): \(text)" }
    }

    private let stored = Mutex<[Message]>([])

    var messages: [Message] { stored.withLock { $0 } }

    /// A logger whose messages at `level` and above are kept here.
    func logger(_ level: Logger.Level) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func keep(_ message: Message) { stored.withLock { $0.append(message) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.keep(Message(level: event.level, text: event.message.description))
        }
    }
}
