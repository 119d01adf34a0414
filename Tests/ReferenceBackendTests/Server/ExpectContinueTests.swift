import CurlTransport
import Foundation
import ReferenceBackend
import SDKSeams
import Synchronization
import TestSupport
import Testing

/// Both servers answer a request head carrying `Expect: 100-continue` with `HTTP/1.1 100 Continue`
/// before its body is sent, and any other expectation with 417 (RFC 9110 §10.1.1), seen on the wire
/// through raw sockets and through libcurl.
@Suite struct ExpectContinueTests {
    static let interim = "HTTP/1.1 100 Continue\r\n\r\n"
    static let registration = #"{"mobile":1,"userId":"expect@example.com"}"#
    /// Every wait here ends on an event (bytes arriving, or the server closing), and is bounded at a
    /// minute only against a hang: a loaded machine running the whole suite has held a test's task
    /// for over ten seconds between two of its sends.
    static let wait: Double = 60
    /// The servers' body deadline in these tests, above every wait: with the default 10 s a body
    /// that a starved test sent late was answered 408 (`StalledBodyTests` covers the deadline).
    static let bodyDeadline = BodyDeadline(seconds: 120)!

    static func backend() async throws -> ReferenceBackend {
        var configuration = BackendConfiguration(seed: "tests")
        configuration.bodyTimeout = bodyDeadline
        return try await ReferenceBackend.start(configuration)
    }

    static func head(_ method: String, _ target: String, length: Int, expect: String?, version: String = "HTTP/1.1")
        -> String
    {
        var head =
            "\(method) \(target) \(version)\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n"
        if let expect { head += "Expect: \(expect)\r\n" }
        return head + "\r\n"
    }

    /// Sends only the head, waits for the interim response (a minute at most), then sends the body.
    static func continued(
        _ connection: RawConnection, _ method: String, _ target: String, body: String,
        expect: String = "100-continue"
    ) async throws -> RawConnection.Response {
        try await connection.send(head(method, target, length: body.utf8.count, expect: expect))
        let interim: [UInt8]
        do {
            interim = try await connection.read(through: Array("\r\n\r\n".utf8), within: wait)
        } catch {
            Issue.record(
                "no interim response to `Expect: \(expect)` within \(wait) s while the client holds the body back: \(error)"
            )
            throw error
        }
        #expect(String(decoding: interim, as: UTF8.self) == Self.interim)
        try await connection.send(body)
        return try await connection.readResponse(within: wait)
    }

    @Test func theBackendAsksForARegistrationBodyAtOnce() async throws {
        let backend = try await Self.backend()
        defer { Task { await backend.stop() } }
        let connection = try RawConnection(port: backend.port)
        let response = try await Self.continued(connection, "PUT", "/rps/user", body: Self.registration)
        #expect(response.statusLine == "HTTP/1.1 200 OK", "\(response.head)\n\(response.text)")
        #expect(response.text.contains(#""mpinId""#), "\(response.text)")

        // The connection stays usable, and the value is matched without regard to case.
        let again = try await Self.continued(
            connection, "PUT", "/rps/user", body: Self.registration, expect: "100-Continue")
        #expect(again.statusLine == "HTTP/1.1 200 OK", "\(again.head)\n\(again.text)")
        await backend.stop()
    }

    @Test func theCassetteServerAsksForTheBodyAtOnce() async throws {
        let recorded = #"{"mpinId":"6e7f","regOTT":"a1b2"}"#
        let server = try await PlainHTTPServer.start(bodyTimeout: Self.bodyDeadline) { request in
            guard request.method == "PUT", request.target == "/rps/user", request.body == Array(Self.registration.utf8)
            else {
                return .init(
                    status: 404, headers: [.init("Content-Type", "text/plain")],
                    body: Array("no recorded exchange\n".utf8))
            }
            return .init(status: 200, headers: [.init("Content-Type", "application/json")], body: Array(recorded.utf8))
        }
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        let hit = try await Self.continued(connection, "PUT", "/rps/user", body: Self.registration)
        #expect(hit.statusLine == "HTTP/1.1 200 OK" && hit.text == recorded, "\(hit.head)\n\(hit.text)")
        let miss = try await Self.continued(connection, "POST", "/rps/pass1", body: #"{"pass":1}"#)
        #expect(
            miss.statusLine == "HTTP/1.1 404 Not Found" && miss.text == "no recorded exchange\n",
            "\(miss.head)\n\(miss.text)")
        await server.stop()
    }

    /// Any expectation other than 100-continue gets 417 naming the header; the request is not
    /// handled, its body is read and dropped, and the connection goes on with the next request.
    @Test func otherExpectationsGet417() async throws {
        let backend = try await Self.backend()
        defer { Task { await backend.stop() } }
        let server = try await PlainHTTPServer.start(bodyTimeout: Self.bodyDeadline) { _ in
            .init(status: 200, body: Array("handled".utf8))
        }
        defer { Task { await server.stop() } }
        for port in [backend.port, server.port] {
            let connection = try RawConnection(port: port)
            try await connection.send(
                Self.head("PUT", "/rps/user", length: Self.registration.utf8.count, expect: "100-continue, fast-lane")
                    + Self.registration)
            let refused = try await connection.readResponse(within: Self.wait)
            #expect(refused.statusLine == "HTTP/1.1 417 Expectation Failed", "\(refused.head)")
            #expect(
                refused.text.contains("Expect header field") && refused.text.contains(#""fast-lane""#)
                    && !refused.text.contains(#""100-continue""#), "\(refused.text)")
            try await connection.send("GET /service HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let next = try await connection.readResponse(within: Self.wait)
            #expect(next.statusLine == "HTTP/1.1 200 OK", "\(next.head)\n\(next.text)")
        }
        await backend.stop()
        await server.stop()
    }

    /// Pipelined requests get their answers in order: a 100 or a 417 owed to a later request waits
    /// until the earlier request's final answer has gone out.
    @Test func interimAnswersKeepTheRequestOrder() async throws {
        // The body deadline counts from the head, which arrives with the pipeline's first bytes: the
        // default 10 s was missed under the whole suite's load (a 408 for /continued).
        let server = try await PlainHTTPServer.start(bodyTimeout: Self.bodyDeadline) { request in
            if request.target == "/slow" { try? await Task.sleep(for: .milliseconds(300)) }
            return .init(status: 200, body: Array("\(request.method) \(request.target)".utf8))
        }
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        try await connection.send(
            "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                + Self.head("PUT", "/refused", length: 2, expect: "fast-lane") + "{}"
                + Self.head("PUT", "/continued", length: 2, expect: "100-continue"))
        let slow = try await connection.readResponse(within: Self.wait)
        #expect(
            slow.statusLine == "HTTP/1.1 200 OK" && slow.text == "GET /slow",
            "the first answer: \(slow.head)\n\(slow.text)")
        let refused = try await connection.readResponse(within: Self.wait)
        #expect(refused.statusLine == "HTTP/1.1 417 Expectation Failed", "the second answer: \(refused.head)")
        let interim = try await connection.read(through: Array("\r\n\r\n".utf8), within: Self.wait)
        #expect(String(decoding: interim, as: UTF8.self) == Self.interim)
        try await connection.send("{}")
        let continued = try await connection.readResponse(within: Self.wait)
        #expect(
            continued.statusLine == "HTTP/1.1 200 OK" && continued.text == "PUT /continued",
            "\(continued.head)\n\(continued.text)")
        await server.stop()
    }

    /// A declared body over the backend's limit is refused with 413 from the head alone, so no
    /// 100 is sent first; a client that sends the body anyway keeps a working connection.
    @Test func aRefusalFromTheHeadIsNotPrecededBy100() async throws {
        var configuration = BackendConfiguration(seed: "tests")
        configuration.maximumBodySize = 64
        configuration.bodyTimeout = Self.bodyDeadline
        let backend = try await ReferenceBackend.start(configuration)
        defer { Task { await backend.stop() } }
        let connection = try RawConnection(port: backend.port)
        try await connection.send(Self.head("PUT", "/rps/user", length: 100, expect: "100-continue"))
        let refused = try await connection.readResponse(within: Self.wait)
        #expect(refused.statusLine.hasPrefix("HTTP/1.1 413 "), "\(refused.head)")
        try await connection.send(
            String(repeating: "x", count: 100) + "GET /service HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let next = try await connection.readResponse(within: Self.wait)
        #expect(next.statusLine == "HTTP/1.1 200 OK", "\(next.head)\n\(next.text)")
        await backend.stop()
    }

    /// RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request is ignored (and no 1xx
    /// goes to an HTTP/1.0 client, §15.2): the final answer is the first thing sent.
    @Test func anHTTP10RequestGetsNoInterimResponse() async throws {
        let backend = try await Self.backend()
        defer { Task { await backend.stop() } }
        let connection = try RawConnection(port: backend.port)
        try await connection.send(
            Self.head(
                "PUT", "/rps/user", length: Self.registration.utf8.count, expect: "100-continue", version: "HTTP/1.0"))
        #expect(!(await connection.hasInput(within: 0.3)), "something was sent to an HTTP/1.0 client before its body")
        try await connection.send(Self.registration)
        let response = try await connection.readResponse(within: Self.wait)
        #expect(response.statusLine == "HTTP/1.1 200 OK", "\(response.head)\n\(response.text)")
        await backend.stop()
    }

    /// libcurl sends `Expect: 100-continue` (here asked for explicitly: the workbench's transport
    /// suppresses libcurl's default) and then waits for the 100 before it sends the body, up to its
    /// timer (1 s by default, so without the interim response every such PUT takes over a second).
    /// Here the timer is set to ten minutes, far beyond the request's one-minute limit: each PUT
    /// succeeds only if libcurl took the server's 100 as its signal, and no clock is compared.
    @Test func libcurlDoesNotWaitOutItsExpectTimer() async throws {
        let backend = try await Self.backend()
        defer { Task { await backend.stop() } }
        let seen = ExpectFieldLog()
        let server = try await PlainHTTPServer.start(bodyTimeout: Self.bodyDeadline) { request in
            seen.append(request.headers.first { $0.name.lowercased() == "expect" }?.value)
            return .init(status: 200, body: Array("ok".utf8))
        }
        defer { Task { await server.stop() } }
        var options = CurlTransport.Options(defaultTimeout: Self.wait, connectTimeout: Self.wait)
        options.expectContinueWait = 600
        let curl = CurlTransport(options: options)
        for base in [backend.baseURL, server.baseURL] {
            for _ in 0..<3 {
                let request = HTTPRequest(
                    method: .put, url: base + "/rps/user",
                    headers: ["Content-Type": "application/json", "Expect": "100-continue"],
                    body: Array(Self.registration.utf8))
                let response = try await curl.send(request)
                #expect(response.status == 200, "\(base): \(response.bodyText ?? "")")
            }
        }
        #expect(
            seen.values == ["100-continue", "100-continue", "100-continue"], "the server saw Expect: \(seen.values)")
        await backend.stop()
        await server.stop()
    }
}

/// The `Expect` values a server handler saw, in order (nil: none sent).
private final class ExpectFieldLog: Sendable {
    private let log = Mutex<[String?]>([])
    func append(_ value: String?) { log.withLock { $0.append(value) } }
    var values: [String?] { log.withLock { $0 } }
}
