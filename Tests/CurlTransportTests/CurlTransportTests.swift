import CurlTransport
import Foundation
import SDKSeams
import Testing

@Suite("CurlTransport against a local HTTP server")
struct CurlTransportTests {
    let transport = CurlTransport(options: .init(defaultTimeout: 10))

    @Test("GET sends exactly the request line, Host and the given headers in order")
    func getExactBytes() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200, body: Array("{}".utf8)) }
        defer { server.stop() }
        let request = HTTPRequest(
            method: .get, url: server.baseURL + "/rps/clientSettings?a=1",
            headers: ["X-MIRACL-CID": "dd", "X-Second": "two"])
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(response.body == Array("{}".utf8))
        let raw = try #require(server.requests.first).raw
        let expected =
            "GET /rps/clientSettings?a=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "X-MIRACL-CID: dd\r\nX-Second: two\r\n\r\n"
        #expect(String(decoding: raw, as: UTF8.self) == expected)
    }

    @Test("POST sends the body bytes exactly, with the given Content-Type and Accept only")
    func postExactBytes() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200) }
        defer { server.stop() }
        let body = Array("{\n\t\"userId\" : \"x\",\n\t\"mobile\" : 1\n}".utf8)
        let request = HTTPRequest(
            method: .post, url: server.baseURL + "/rps/pass1",
            headers: ["Content-Type": "application/json; charset=UTF-8", "Accept": "text/plain"],
            body: body)
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        let received = try #require(server.requests.first)
        #expect(received.body == body)
        let expected =
            "POST /rps/pass1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json; charset=UTF-8\r\nAccept: text/plain\r\nContent-Length: \(body.count)\r\n\r\n"
        #expect(received.head + "\r\n\r\n" == expected)
    }

    @Test("Binary request and response bodies pass unchanged", arguments: [HTTPMethod.post, .put, .patch])
    func binaryBodies(method: HTTPMethod) async throws {
        let payload = (0..<512).map { UInt8($0 % 256) }
        let server = try LocalHTTPServer { request in
            .make(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body.reversed())
        }
        defer { server.stop() }
        let response = try await transport.send(
            HTTPRequest(method: method, url: server.baseURL + "/echo", body: payload))
        let received = try #require(server.requests.first)
        #expect(received.requestLine == "\(method.rawValue) /echo HTTP/1.1")
        #expect(received.body == payload)
        #expect(!received.head.lowercased().contains("content-type"))
        #expect(!received.head.lowercased().contains("expect"))
        #expect(response.body == payload.reversed())
    }

    @Test("Every method reaches the server with its name", arguments: HTTPMethod.allCases)
    func methods(method: HTTPMethod) async throws {
        let server = try LocalHTTPServer { _ in .make(status: 204, reason: "No Content") }
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(method: method, url: server.baseURL + "/m"))
        #expect(response.status == 204)
        let received = try #require(server.requests.first)
        #expect(received.requestLine == "\(method.rawValue) /m HTTP/1.1")
        let hasLength = received.head.lowercased().contains("content-length: 0")
        #expect(hasLength == [.post, .put, .patch].contains(method))
    }

    @Test(
        "Status codes come back as responses, with headers in order and duplicates kept",
        arguments: [400, 401, 403, 404, 406, 408, 409, 410, 412, 500, 503])
    func errorStatuses(status: Int) async throws {
        let body = Array("{\"message\":\"Wrong PIN.\"}".utf8)
        let server = try LocalHTTPServer { _ in
            .make(
                status: status, reason: "Status",
                headers: [
                    ("WWW-Authenticate", "Authenticate"),
                    ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
                ], body: body)
        }
        defer { server.stop() }
        let response = try await transport.send(
            HTTPRequest(
                method: .post, url: server.baseURL + "/rps/authenticate",
                body: Array("{}".utf8)))
        #expect(response.status == status)
        #expect(response.body == body)
        #expect(response.headers["www-authenticate"] == "Authenticate")
        #expect(response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(
            response.headers.fields.map(\.name) == [
                "WWW-Authenticate", "Set-Cookie", "Set-Cookie",
                "Content-Length", "Connection",
            ])
    }

    @Test("Redirects are returned, not followed")
    func redirectsNotFollowed() async throws {
        let server = try LocalHTTPServer { _ in
            .make(status: 302, reason: "Found", headers: [("Location", "/elsewhere")])
        }
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/start"))
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/elsewhere")
        #expect(server.requests.count == 1)
    }

    @Test("A chunked body is reassembled byte for byte")
    func chunkedBody() async throws {
        let raw =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        let server = try LocalHTTPServer { _ in .init(raw: Array(raw.utf8)) }
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/c"))
        #expect(response.bodyText == "hello world")
    }

    @Test("An interim 100 Continue does not leak into the final headers")
    func interimResponse() async throws {
        let raw =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-Final: yes\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        let server = try LocalHTTPServer { _ in .init(raw: Array(raw.utf8)) }
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/i"))
        #expect(response.status == 200)
        #expect(response.headers.fields.map(\.name) == ["X-Final", "Content-Length", "Connection"])
        #expect(response.bodyText == "ok")
    }

    @Test("Timings are present and ordered by phase")
    func timings() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200, body: Array("x".utf8), delay: 0.05) }
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/t"))
        let timings = try #require(response.timings)
        #expect(timings.dns <= timings.connect)
        #expect(timings.connect <= timings.requestSent)
        #expect(timings.requestSent <= timings.firstByte)
        #expect(timings.firstByte <= timings.total)
        #expect(timings.firstByte >= 0.04)
        #expect(timings.tls == 0)
    }

    @Test("A refused connection is a typed transport error with libcurl's message")
    func connectionRefused() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200) }
        let url = server.baseURL + "/closed"
        server.stop()
        await #expect(throws: TransportError.self) { try await transport.send(HTTPRequest(method: .get, url: url)) }
        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: url))
            Issue.record("expected a refused connection")
        } catch {
            #expect(error.kind == .connectionRefused)
            #expect(error.url == url)
            #expect(error.code == 7)
            #expect(!error.message.isEmpty)
            #expect(!error.message.contains(" ms"), "\(error.message)")
        }
    }

    @Test("A slow server hits the request timeout")
    func timeout() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200, delay: 3) }
        defer { server.stop() }
        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/slow", timeout: 0.3))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.code == 28)
            #expect(error.message.lowercased().contains("timeout") || error.message.lowercased().contains("timed out"))
            // The limit, not the measured time, so that a recorded timeout reads the same every run.
            #expect(
                error.message.contains("at the 300 ms limit") && !error.message.contains("milliseconds"),
                "\(error.message)")
        }
        // No wall-clock bound: the kind and curl's code 28 already say that the 0.3 s limit ended the
        // exchange before the server's 3 s delay, and wall time is unreliable on a loaded machine.
    }

    @Test(
        "Unsupported schemes and malformed URLs are invalid requests", arguments: ["ftp://127.0.0.1/x", "http://[::1"])
    func invalidURL(url: String) async throws {
        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: url))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidRequest)
        }
    }

    @Test("Parallel requests from many tasks all complete")
    func concurrent() async throws {
        let server = try LocalHTTPServer { request in
            .make(status: 200, body: Array(request.requestLine.utf8), delay: 0.05)
        }
        defer { server.stop() }
        let bodies = try await sendParallelGets(16, to: server.baseURL, through: transport)
        #expect(Set(bodies) == expectedEchoes(16))
    }

    /// The server here never sends `100 Continue`, so libcurl holds the body of a PUT that asks for
    /// one until its timer runs out: 1 s by default, after which the body goes and the answer
    /// comes; with `expectContinueWait` at ten minutes the request reaches its own 10 s limit first.
    /// (The reference backend's test of libcurl and 100-continue relies on that option.)
    @Test("expectContinueWait is libcurl's 100-continue timer")
    func expectContinueWaitIsTheTimer() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let request = HTTPRequest(
            method: .put, url: server.baseURL + "/rps/user", headers: ["Expect": "100-continue"],
            body: Array("{}".utf8), timeout: 10)
        let answered = try await transport.send(request)
        #expect(answered.status == 200 && answered.body == Array("ok".utf8))
        var options = transport.options
        options.expectContinueWait = 600
        await #expect(throws: TransportError.self) { try await CurlTransport(options: options).send(request) }
        // The server records what it had read when libcurl gave up: the second PUT's head, no body.
        #expect(server.requests.map(\.body) == [Array("{}".utf8), []], "\(server.requests.map(\.raw.count))")
    }

    @Test("The blocking variant gives the same answer")
    func blocking() throws {
        let server = try LocalHTTPServer { _ in .make(status: 201, reason: "Created", body: Array("done".utf8)) }
        defer { server.stop() }
        let response = try transport.sendBlocking(
            HTTPRequest(method: .put, url: server.baseURL + "/b", body: Array("1".utf8)))
        #expect(response.status == 201)
        #expect(response.bodyText == "done")
        #expect(CurlTransport.libraryVersion.hasPrefix("libcurl/"))
    }
}

@Suite("CurlTransport cancellation")
struct CurlTransportCancellationTests {
    @Test("Cancelling the task aborts a slow request with a cancelled error")
    func cancellation() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200, delay: 5) }
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task { () -> TransportError? in
            do throws(TransportError) {
                _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/slow"))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let error = await task.value
        // A `cancelled` error (not a response after the server's delay) shows the transfer was aborted;
        // wall time is not asserted because it is unreliable on a loaded machine.
        #expect(error?.kind == .cancelled)
    }
}
