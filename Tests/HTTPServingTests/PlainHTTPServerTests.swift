import CurlTransport
import HTTPServing
import SDKSeams
import Testing

/// The closure server behind `serve --cassette`, over real HTTP with libcurl.
@Suite struct PlainHTTPServerTests {
    @Test func handsOverTheRequestAndSendsTheAnswer() async throws {
        let server = try await PlainHTTPServer.start(maximumBodySize: 64) { request in
            let echo =
                "\(request.method) \(request.target) \(request.headers.first { $0.name == "X-Test" }?.value ?? "-") "
                + String(decoding: request.body, as: UTF8.self)
            return .init(
                status: 418, headers: [.init("Content-Type", "text/plain"), .init("X-Served", "yes")],
                body: Array(echo.utf8))
        }
        let curl = CurlTransport(options: .init(defaultTimeout: 10, connectTimeout: 5))
        let response = try await curl.send(
            HTTPRequest(
                method: .post, url: server.baseURL + "/a/b?c=1&d=%20", headers: ["X-Test": "t"],
                body: Array("hello".utf8)))
        #expect(
            response.status == 418 && response.headers["X-Served"] == "yes"
                && response.headers["Content-Length"] == "27")
        #expect(String(decoding: response.body, as: UTF8.self) == "POST /a/b?c=1&d=%20 t hello")
        let large = try await curl.send(
            HTTPRequest(method: .put, url: server.baseURL + "/big", body: Array(repeating: 65, count: 65)))
        #expect(large.status == 413)
        await server.stop()
    }
}
