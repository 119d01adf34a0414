import CurlTransport
import Foundation
import MPinSDK
import Testing

/// The SDK over the real transport: statuses such as 401 (with a `WWW-Authenticate` challenge)
/// and 403 reach the SDK's status mapping like any other response.
@Suite("MPinClient over CurlTransport")
struct SDKOverCurlTests {
    @Test func statusesReachTheSDK() async throws {
        let server = try LocalHTTPServer { request in
            switch request.requestLine {
            case let line where line.hasPrefix("GET /rps/clientSettings "):
                return .make(
                    status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")],
                    body: Array("{\"registerURL\": \"/rps/user\", \"cSum\": 1, \"accessNumberDigits\": 7}".utf8))
            case let line where line.hasPrefix("PUT /rps/user "):
                return .make(status: 403, reason: "Forbidden", body: Array("{\"message\": \"not allowed\"}".utf8))
            default:
                return .make(
                    status: 401, reason: "Unauthorized", headers: [("WWW-Authenticate", "Authenticate")],
                    body: Array("{\"message\": \"who are you\"}".utf8))
            }
        }
        defer { server.stop() }
        let sdk = MPinClient(transport: CurlTransport(options: .init(defaultTimeout: 10)), storage: MemoryStorage())
        try await sdk.initialize(configuration: ["backend": server.baseURL])
        #expect(await sdk.clientParameter("registerURL") == server.baseURL + "/rps/user")

        let user = try await sdk.makeNewUser(id: "alice@example.com")
        do {
            try await sdk.startRegistration(user)
            Issue.record("expected IDENTITY_NOT_AUTHORIZED")
        } catch {
            #expect(error.code == .identityNotAuthorized)
            #expect(error.message.contains("not allowed"))
        }
        let put = try #require(server.requests.last)
        #expect(put.body == Array("{\n\t\"userId\" : \"alice@example.com\",\n\t\"mobile\" : 1\n}".utf8))
        #expect(put.head.contains("\r\nAccept: text/plain\r\nContent-Type: application/json; charset=UTF-8\r\n"))

        do {
            _ = try await sdk.getServiceDetails(url: server.baseURL)
            Issue.record("expected HTTP_REQUEST_ERROR")
        } catch {
            #expect(error.code == .httpRequestError)
            #expect(error.context.httpStatus == 401)
            #expect(error.context.responseBody == "{\"message\": \"who are you\"}")
        }
    }

    @Test func refusedConnectionIsANetworkError() async throws {
        let server = try LocalHTTPServer { _ in .make(status: 200) }
        let url = server.baseURL
        server.stop()
        let sdk = MPinClient(transport: CurlTransport(), storage: MemoryStorage())
        try await sdk.initialize(configuration: [:])
        do {
            try await sdk.testBackend(url)
            Issue.record("expected NETWORK_ERROR")
        } catch {
            #expect(error.code == .networkError)
            #expect(error.context.request == "GET \(url)/rps/clientSettings")
        }
    }
}
