import Foundation
import HTTPServing
import NIOPosix
import TestSupport
import Testing

/// How the servers read and answer requests on one connection (`ExchangeHandler`), over raw
/// TCP so that the bytes and their timing are the test's: pipelining, bodies over the limit,
/// closing, parse errors, and where the answer is made.
@Suite struct ExchangeHandlerTests {
    /// A server that echoes the method, target and body; a request for `/slow` is answered after 50 ms.
    func echoServer(limit: Int = 64) async throws -> PlainHTTPServer {
        try await PlainHTTPServer.start(maximumBodySize: limit) { request in
            if request.target == "/slow" { try? await Task.sleep(for: .milliseconds(50)) }
            return .init(
                status: 200,
                body: Array("\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))".utf8)
            )
        }
    }

    /// Two requests sent at once are answered in the order sent, even when the first takes longer.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send(
            "GET /slow HTTP/1.1\r\nHost: a\r\n\r\nPOST /quick HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi")
        let first = try await connection.readResponse(within: 30)
        let second = try await connection.readResponse(within: 30)
        #expect(first.text == "GET /slow " && second.text == "POST /quick hi")
        #expect(first.field("Content-Length") == "10" && first.field("Date")?.hasSuffix(" GMT") == true)
    }

    /// Many requests sent at once, more body bytes than the server holds before it pauses reading
    /// (the limit plus 64 KiB), are all answered, in order.
    @Test func aFloodOfPipelinedRequestsIsAnsweredInOrder() async throws {
        let server = try await echoServer(limit: 1_000)
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        let body = String(repeating: "b", count: 900)
        let requests = (0..<200).map { "POST /\($0) HTTP/1.1\r\nHost: a\r\nContent-Length: 900\r\n\r\n" + body }
        try await connection.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n" + requests.joined())
        #expect(try await connection.readResponse(within: 30).text == "GET /slow ")
        for index in 0..<200 {
            let answer = try await connection.readResponse(within: 30)
            #expect(answer.text == "POST /\(index) " + body, "answer \(index)")
        }
    }

    /// The largest limit a program can give works: nothing overflows while requests wait.
    @Test func theLargestLimitWorks() async throws {
        let server = try await echoServer(limit: .max)
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send(
            "GET /slow HTTP/1.1\r\nHost: a\r\n\r\nPOST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok")
        #expect(try await connection.readResponse(within: 30).text == "GET /slow ")
        #expect(try await connection.readResponse(within: 30).text == "POST /b ok")
    }

    /// A graceful stop lets the request in hand be answered (saying `Connection: close`), then
    /// closes the connection. The stop begins once the request is with the handler, and the
    /// handler holds its answer until the server refuses new connections, so the stop has begun
    /// whatever the machine's load.
    @Test func aStopAnswersTheRequestInHandThenCloses() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let server = try await PlainHTTPServer.start { request in
            arrived.yield()
            for await _ in gate { break }
            return .init(status: 200, body: Array("\(request.method) \(request.target)".utf8))
        }
        let connection = try RawConnection(port: server.port)
        try await connection.send("GET /held HTTP/1.1\r\nHost: a\r\n\r\n")
        for await _ in arrivals { break }  // the request is in hand
        let stopping = Task { await server.stop() }
        var refused = false
        for _ in 0..<1_000 where !refused {
            refused = (try? RawConnection(port: server.port)) == nil
            if !refused { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(refused, "the server still accepted connections 10 s after the stop began")
        try await Task.sleep(for: .milliseconds(50))
        open.yield()
        let answer = try await connection.readResponse(within: 30)
        #expect(answer.text == "GET /held" && answer.field("Connection") == "close", "\(answer.head)")
        #expect(await connection.isClosedByServer(within: 30))
        await stopping.value
    }

    /// A chunked body that grows over the limit is refused (413) without reaching the handler; the
    /// rest of it is dropped and the connection serves the next request.
    @Test func aChunkedBodyOverTheLimitIsRefusedAndTheConnectionGoesOn() async throws {
        let server = try await echoServer(limit: 8)
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send(
            "POST /big HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n6\r\nmnopqr\r\n0\r\n\r\n"
        )
        let refused = try await connection.readResponse(within: 30)
        #expect(
            refused.statusLine == "HTTP/1.1 413 Payload Too Large"
                && refused.text == "The body is larger than 8 bytes\n", "\(refused.head)")
        try await connection.send("POST /next HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc")
        let next = try await connection.readResponse(within: 30)
        #expect(next.statusLine == "HTTP/1.1 200 OK" && next.text == "POST /next abc")
    }

    /// `Connection: close` makes its answer the last: the server closes after it (long before the
    /// 30 s an idle connection is kept).
    @Test func connectionCloseEndsTheConnectionAfterTheAnswer() async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send("GET /slow HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let answer = try await connection.readResponse(within: 30)
        #expect(answer.text == "GET /slow ")
        #expect(await connection.isClosedByServer(within: 30))
    }

    /// A client that goes away while its request is being answered costs the server nothing: the
    /// answer is dropped, and the next connection is served.
    @Test func aClientThatLeavesMidRequestDoesNotHurtTheServer() async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        do {
            let leaving = try RawConnection(port: server.port)
            try await leaving.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        }  // closed here, while the answer is 50 ms away
        try await Task.sleep(for: .milliseconds(100))
        let next = try RawConnection(port: server.port)
        try await next.send("GET /after HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try await next.readResponse(within: 30).text == "GET /after ")
    }

    /// A client that closes its side after sending one request, or two pipelined, still gets
    /// every answer it asked for, then the server closes (long before the 30 s an idle connection
    /// is kept).
    @Test(arguments: [["/slow"], ["/slow", "/second"]])
    func aHalfClosedClientGetsEveryAnswerItAskedFor(paths: [String]) async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: a\r\n\r\n" }.joined())
        connection.closeForSending()
        for path in paths {
            #expect(try await connection.readResponse(within: 30).text == "GET \(path) ")
        }
        #expect(await connection.isClosedByServer(within: 30))
    }

    /// A keep-alive connection stays open after an answer.
    @Test func aKeepAliveConnectionStaysOpen() async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try await connection.readResponse(within: 30)
        #expect(await !connection.isClosedByServer(within: 0.2))
    }

    /// Bytes that are not HTTP get a 400 (with NIO's protocol-error handler's fields) and the connection closes.
    @Test func bytesThatAreNotHTTPGet400AndAClose() async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send("HELLO THERE\r\n\r\n")
        let answer = try await connection.readResponse(within: 30)
        #expect(answer.statusLine == "HTTP/1.1 400 Bad Request" && answer.field("Connection") == "close")
        #expect(answer.field("Content-Length") == "0" && answer.text.isEmpty)
        #expect(await connection.isClosedByServer(within: 30))
    }

    /// The handler runs on a SwiftNIO event loop (the connection's), not on another thread the
    /// request would be handed to and back.
    @Test func theAnswerIsMadeOnTheEventLoop() async throws {
        let server = try await PlainHTTPServer.start { _ in
            .init(
                status: 200,
                body: Array((MultiThreadedEventLoopGroup.currentEventLoop == nil ? "elsewhere" : "event loop").utf8))
        }
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try await connection.readResponse(within: 30).text == "event loop")
    }

    /// An answer to `HEAD` has the head a `GET` would get, its `Content-Length` among it, and no
    /// body: the next answer on the connection follows the blank line at once.
    @Test func anAnswerToHEADHasNoBody() async throws {
        let server = try await echoServer()
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send("HEAD /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = String(
            decoding: try await connection.read(through: Array("\r\n\r\n".utf8), within: 30), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200") && head.contains("Content-Length: 8\r\n"), "\(head)")
        let next = try await connection.readResponse(within: 30)
        #expect(next.statusLine.hasPrefix("HTTP/1.1 200") && next.text == "GET /b ", "\(next.head)")
    }

    /// A refusal of `CONNECT` carries its body and `Content-Length` (RFC 9112 §6.3 takes the body
    /// away only from a 2xx answer to `CONNECT`), and the connection closes after it.
    @Test func aRefusalOfCONNECTHasItsBody() async throws {
        let server = try await PlainHTTPServer.start { _ in .init(status: 405, body: Array("no tunnel".utf8)) }
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n")
        let answer = try await connection.readResponse(within: 30)
        #expect(
            answer.statusLine.hasPrefix("HTTP/1.1 405") && answer.field("Content-Length") == "9"
                && answer.text == "no tunnel", "\(answer.head)")
        #expect(await connection.isClosedByServer(within: 30))
    }
}
