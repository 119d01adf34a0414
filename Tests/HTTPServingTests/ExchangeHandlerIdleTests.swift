import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import HTTPServing

/// The idle timeout `ExchangeHandler` keeps, on an embedded event loop whose clock the test moves:
/// a connection with no request in hand and nothing read or written for the timeout is closed;
/// a request puts the close off, and a request in hand is never cut off.
@Suite struct ExchangeHandlerIdleTests {
    /// Answers with the request's path; `/held` once the test opens the gate.
    private struct PathResponder: ServerResponder {
        let gate: AsyncStream<Void>
        var maximumBodySize: Int { 1_024 }

        func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer {
            if head.path == "/held" {
                for await _ in gate { break }
            }
            return ServerAnswer(.ok, body: Array((head.path ?? "").utf8))
        }

        func refusal(oversized head: HTTPRequest) -> ServerAnswer { ServerAnswer(.contentTooLarge) }
    }

    private struct Connection {
        let channel: EmbeddedChannel
        let loop: EmbeddedEventLoop
        let open: AsyncStream<Void>.Continuation

        init() throws {
            let (gate, open) = AsyncStream<Void>.makeStream()
            loop = EmbeddedEventLoop()
            channel = EmbeddedChannel(loop: loop)
            self.open = open
            let handler = ExchangeHandler(
                responder: PathResponder(gate: gate),
                log: RequestLog(logger: Logger(label: "idle-tests"), enabled: false),
                idleTimeout: .seconds(30))
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        }

        /// Sends a GET and runs the loop until its task has run (and answered, unless held).
        func get(_ path: String) throws {
            try channel.writeInbound(
                HTTPServerRequestPart.head(
                    HTTPRequestHead(
                        version: .http1_1, method: .GET, uri: path,
                        headers: ["Host": "a"])))
            try channel.writeInbound(HTTPServerRequestPart.end(nil))
            loop.run()
        }

        /// The status and body of the next answer written, nil when none was.
        func answer() throws -> (status: UInt, body: String)? {
            guard case .head(let head) = try channel.readOutbound(as: HTTPServerResponsePart.self) else { return nil }
            var body = ""
            while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
                if case .body(.byteBuffer(let bytes)) = part { body += String(buffer: bytes) }
                if case .end = part { break }
            }
            return (head.status.code, body)
        }

        func advance(seconds: Int64) {
            loop.advanceTime(by: .seconds(seconds))
        }
    }

    /// Nothing sent: open until 30 s after the connection began, closed then.
    @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
        let connection = try Connection()
        connection.advance(seconds: 29)
        #expect(connection.channel.isActive)
        connection.advance(seconds: 1)
        #expect(!connection.channel.isActive)
    }

    /// A request at 20 s moves the close to 30 s after its answer.
    @Test func aRequestPutsTheCloseOff() throws {
        let connection = try Connection()
        connection.advance(seconds: 20)
        try connection.get("/a")
        #expect(try connection.answer()?.body == "/a")
        connection.advance(seconds: 29)
        #expect(connection.channel.isActive, "closed 30 s after it began, though a request came at 20 s")
        connection.advance(seconds: 1)
        #expect(!connection.channel.isActive)
    }

    /// A request held for 90 s is answered, and the connection is closed 30 s after that answer.
    @Test func aRequestInHandIsNotCutOff() throws {
        let connection = try Connection()
        try connection.get("/held")
        #expect(try connection.answer() == nil)
        connection.advance(seconds: 90)
        #expect(connection.channel.isActive, "closed with a request in hand")
        connection.open.yield()
        connection.loop.run()
        #expect(try connection.answer()?.body == "/held")
        connection.advance(seconds: 29)
        #expect(connection.channel.isActive)
        connection.advance(seconds: 1)
        #expect(!connection.channel.isActive)
    }
}
