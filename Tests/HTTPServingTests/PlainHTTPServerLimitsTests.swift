import CurlTransport
import HTTPServing
import SDKSeams
import Testing

/// An answer that cannot go on the wire is replaced by a 500 saying why. Before, a status outside
/// 0...999 or 65,535 header fields stopped the process (a precondition of the HTTP types), and a
/// field whose name is not a token was dropped unseen.
@Suite struct PlainHTTPServerLimitsTests {
    func served(_ answer: PlainHTTPServer.Response) async throws -> HTTPResponse {
        let server = try await PlainHTTPServer.start { _ in answer }
        let curl = CurlTransport(options: .init(defaultTimeout: 10, connectTimeout: 5))
        let response = try await curl.send(HTTPRequest(method: .get, url: server.baseURL + "/x"))
        // The server is still up for the next request.
        let again = try await curl.send(HTTPRequest(method: .get, url: server.baseURL + "/y"))
        #expect(again.status == response.status)
        await server.stop()
        return response
    }

    @Test func aStatusOutsideThreeDigitsIsAnswered500() async throws {
        for status in [-1, 0, 99, 1000, Int.max] {
            let response = try await served(.init(status: status))
            #expect(response.status == 500, "\(status)")
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == "The answer cannot be sent: status \(status) is not an HTTP status (100 to 999)\n")
        }
        #expect(try await served(.init(status: 299)).status == 299)
    }

    @Test func tooManyHeaderFieldsAreAnswered500() async throws {
        let response = try await served(.init(status: 200, headers: (0..<100_000).map { .init("X-\($0)", "v") }))
        #expect(response.status == 500)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == "The answer cannot be sent: 100000 header fields, more than 1000\n")
        #expect(try await served(.init(status: 200, headers: (0..<1_000).map { .init("X-\($0)", "v") })).status == 200)
    }

    /// A `Content-Length` the handler gives is the body's real length on the wire, once: a wrong
    /// one would desynchronise the connection (the second request checks it still works).
    @Test func contentLengthIsTheBodysLength() async throws {
        let response = try await served(
            .init(
                status: 200,
                headers: [
                    .init("X-A", "1"), .init("Content-Length", "999"),
                    .init("content-length", "3"),
                ], body: Array("hi".utf8)))
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "hi")
        #expect(response.headers["Content-Length"] == "2")
        #expect(response.headers.fields.filter { $0.name.lowercased() == "content-length" }.count == 1)
    }

    @Test func aFieldThatIsNoHeaderIsAnswered500() async throws {
        let name = try await served(.init(status: 200, headers: [.init("Bad Name", "v")]))
        #expect(
            name.status == 500
                && String(decoding: name.body, as: UTF8.self)
                    == "The answer cannot be sent: \"Bad Name\" is not a header field name\n"
        )
        let value = try await served(.init(status: 200, headers: [.init("X", "a\r\nInjected: 1")]))
        #expect(value.status == 500)
    }
}
