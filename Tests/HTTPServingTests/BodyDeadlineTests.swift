import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import HTTPServing

/// The body timeout `ExchangeHandler` keeps (`BodyDeadline`): a request whose head arrived but
/// whose body has not ended by the deadline gets a 408 with `Connection: close` and its connection
/// closes; a body that ends in time is answered as usual. Before, such a connection stayed open
/// for ever (20 of 20 still open after 70 s, on `serve` and `serve --cassette`).
@Suite struct BodyDeadlineTests {
    private struct EchoResponder: ServerResponder {
        var maximumBodySize: Int { 1_024 }
        func respond(to head: HTTPRequest, body: [UInt8]) async -> ServerAnswer { ServerAnswer(.ok, body: body) }
        func refusal(oversized head: HTTPRequest) -> ServerAnswer { ServerAnswer(.contentTooLarge) }
    }

    private struct Connection {
        let channel: EmbeddedChannel
        let loop = EmbeddedEventLoop()

        init() throws {
            channel = EmbeddedChannel(loop: loop)
            let handler = ExchangeHandler(
                responder: EchoResponder(),
                log: RequestLog(logger: Logger(label: "body-deadline-tests"), enabled: false),
                idleTimeout: .seconds(30), bodyDeadline: BodyDeadline(seconds: 10)!)
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        }

        /// A POST head declaring `length` body bytes, then `sent` of them.
        func post(length: Int, sending sent: Int) throws {
            try channel.writeInbound(
                HTTPServerRequestPart.head(
                    HTTPRequestHead(
                        version: .http1_1, method: .POST, uri: "/p",
                        headers: ["Host": "a", "Content-Length": String(length)])))
            try channel.writeInbound(
                HTTPServerRequestPart.body(
                    channel.allocator.buffer(bytes: Array(repeating: UInt8(ascii: "x"), count: sent))))
            loop.run()
        }

        func answer() throws -> (status: UInt, connection: String?, body: String)? {
            guard case .head(let head) = try channel.readOutbound(as: HTTPServerResponsePart.self) else { return nil }
            var body = ""
            while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
                if case .body(.byteBuffer(let bytes)) = part { body += String(buffer: bytes) }
                if case .end = part { break }
            }
            return (head.status.code, head.headers.first(name: "Connection"), body)
        }
    }

    @Test func aStalledBodyGets408AndTheConnectionCloses() throws {
        let connection = try Connection()
        try connection.post(length: 1_000, sending: 1)
        connection.loop.advanceTime(by: .seconds(9))
        #expect(connection.channel.isActive)
        #expect(try connection.answer() == nil)
        connection.loop.advanceTime(by: .seconds(1))
        let answer = try #require(try connection.answer())
        #expect(answer.status == 408)
        #expect(answer.connection == "close")
        #expect(answer.body.contains("did not arrive within 10.0 s"))
        #expect(!connection.channel.isActive)
    }

    @Test func aBodyThatEndsInTimeIsAnsweredAndNotCutOffLater() throws {
        let connection = try Connection()
        try connection.post(length: 2, sending: 1)
        connection.loop.advanceTime(by: .seconds(9))
        try connection.channel.writeInbound(
            HTTPServerRequestPart.body(connection.channel.allocator.buffer(string: "y")))
        try connection.channel.writeInbound(HTTPServerRequestPart.end(nil))
        connection.loop.run()
        let answer = try #require(try connection.answer())
        #expect(answer.status == 200)
        #expect(answer.body == "xy")
        connection.loop.advanceTime(by: .seconds(20))
        #expect(connection.channel.isActive, "closed by the body deadline of a request already answered")
        #expect(try connection.answer() == nil)
    }

    /// A body refused with 413 from its head and then stalled: no second answer, the connection closes.
    @Test func aStalledRefusedBodyClosesWithoutASecondAnswer() throws {
        let connection = try Connection()
        try connection.post(length: 5_000, sending: 1)
        #expect(try connection.answer()?.status == 413)
        connection.loop.advanceTime(by: .seconds(10))
        #expect(try connection.answer() == nil)
        #expect(!connection.channel.isActive)
    }

    @Test func theDeadlineIsRangeChecked() {
        #expect(BodyDeadline(seconds: 0) == nil)
        #expect(BodyDeadline(seconds: -1) == nil)
        #expect(BodyDeadline(seconds: .nan) == nil)
        #expect(BodyDeadline(seconds: 3_601) == nil)
        #expect(BodyDeadline(seconds: 0.5)?.seconds == 0.5)
        #expect(BodyDeadline.standard.seconds <= 30)
    }
}
