import TestSupport
import Testing

/// A request that asks for no keep-alive gets its answer with `Connection: close`, and then the
/// server closes: HTTP/1.0 without `Connection: keep-alive` (RFC 9112 §9.3), HTTP/1.1 with
/// `Connection: close` (in any case, among other options). Before, an HTTP/1.0 request's
/// connection stayed open until the idle timeout (30 s) and no answer said `Connection: close`.
/// The waits below only bound how long a broken server is waited for; no test measures time.
@Suite struct ConnectionCloseTests {
    private static let wait = 20.0

    private func answer(_ request: String) async throws -> (RawConnection.Response, closed: Bool) {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let connection = try RawConnection(port: harness.backend.port)
        try await connection.send(request)
        let response = try await connection.readResponse(within: Self.wait)
        return (response, await connection.isClosedByServer(within: Self.wait))
    }

    @Test func http10WithoutKeepAliveIsClosedAfterTheAnswer() async throws {
        let (response, closed) = try await answer("GET /rps/clientSettings HTTP/1.0\r\nHost: a\r\n\r\n")
        #expect(response.statusLine.contains("200"), "\(response.head)")
        #expect(response.field("Connection")?.lowercased() == "close", "\(response.head)")
        #expect(closed, "the connection of an HTTP/1.0 request stayed open")
    }

    @Test func http11WithConnectionCloseIsClosedAfterTheAnswer() async throws {
        for field in ["close", "Close", "keep-alive, close"] {
            let (response, closed) = try await answer(
                "GET /rps/clientSettings HTTP/1.1\r\nHost: a\r\nConnection: \(field)\r\n\r\n")
            #expect(response.field("Connection")?.lowercased() == "close", "\(field): \(response.head)")
            #expect(closed, "Connection: \(field) left the connection open")
        }
    }

    /// HTTP/1.0 with `Connection: keep-alive`, and HTTP/1.1 by default, keep the connection: a
    /// second request on it is answered.
    @Test func keepAliveKeepsTheConnection() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        for request in [
            "GET /rps/clientSettings HTTP/1.0\r\nHost: a\r\nConnection: keep-alive\r\n\r\n",
            "GET /rps/clientSettings HTTP/1.1\r\nHost: a\r\n\r\n",
        ] {
            let connection = try RawConnection(port: harness.backend.port)
            for _ in 0..<2 {
                try await connection.send(request)
                let response = try await connection.readResponse(within: Self.wait)
                #expect(response.statusLine.contains("200"), "\(response.head)")
                #expect(response.field("Connection")?.lowercased() != "close", "\(response.head)")
            }
        }
    }
}
