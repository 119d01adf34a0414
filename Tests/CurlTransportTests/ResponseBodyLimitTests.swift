import CurlTransport
import SDKSeams
import Testing

/// The transport's cap on response bodies (16 MiB unless told otherwise): a body past it ends the
/// transfer with a `.responseTooLarge` error while the server is still sending, so what one
/// transfer holds stays bounded. The servers stream their bodies (64 MiB at most) and count what
/// they could send: far less than the whole shows that the transfer was aborted, not buffered.
@Suite("CurlTransport response body limit")
struct ResponseBodyLimitTests {
    static let streamed = 64 << 20

    @Test("The default transport takes at most 16 MiB")
    func defaultLimit() {
        #expect(CurlTransport.defaultMaximumResponseBody == 16 << 20)
        #expect(CurlTransport.Options().maximumResponseBody == 16 << 20)
        #expect(CurlTransport().options.maximumResponseBody == CurlTransport.defaultMaximumResponseBody)
    }

    @Test("A body of unknown length past the default limit is aborted with responseTooLarge")
    func endlessBody() async throws {
        let server = try LocalHTTPServer { _ in .streaming(length: nil, streamed: Self.streamed) }
        defer { server.stop() }
        let error = await Self.failure(CurlTransport(options: .init(defaultTimeout: 60)), server.baseURL + "/endless")
        #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
        #expect(error?.message == "the response body is more than \(16 << 20) bytes, the most this transport takes")
        #expect(server.streamedBytes < Self.streamed, "the whole body was read: \(server.streamedBytes) bytes")
    }

    @Test("A Content-Length past the limit ends the transfer before its body is read")
    func declaredLength() async throws {
        let server = try LocalHTTPServer { _ in .streaming(length: Self.streamed, streamed: Self.streamed) }
        defer { server.stop() }
        let transport = CurlTransport(options: .init(defaultTimeout: 60, maximumResponseBody: 1 << 20))
        let error = await Self.failure(transport, server.baseURL + "/declared")
        #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
        #expect(error?.message.contains("more than \(1 << 20) bytes") == true)
        #expect(server.streamedBytes < Self.streamed)
    }

    @Test("A body of exactly the limit is taken")
    func atTheLimit() async throws {
        let body = [UInt8](repeating: 0x62, count: 4096)
        let server = try LocalHTTPServer { _ in .make(status: 200, body: body) }
        defer { server.stop() }
        let transport = CurlTransport(options: .init(defaultTimeout: 30, maximumResponseBody: body.count))
        let response = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/exact"))
        #expect(response.body == body)
        let smaller = CurlTransport(options: .init(defaultTimeout: 30, maximumResponseBody: body.count - 1))
        #expect(await Self.failure(smaller, server.baseURL + "/exact")?.kind == .responseTooLarge)
    }

    static func failure(_ transport: CurlTransport, _ url: String) async -> TransportError? {
        do {
            let response = try await transport.send(HTTPRequest(method: .get, url: url))
            Issue.record("expected an error, got \(response.status) with \(response.body.count) bytes")
            return nil
        } catch {
            return error
        }
    }
}
