import SDKSeams
import Testing

@testable import HTTPServing

/// `PlainHTTPServer+SDKSeams`: the one conversion between the closure server's messages and the
/// seams' (what `proxy` and `serve --cassette` pass to FlowRecording); order, repeats, case and
/// bytes kept.
@Suite struct PlainHTTPServerSDKSeamsTests {
    @Test func requestFieldsBecomeHeadersInOrder() {
        let request = PlainHTTPServer.Request(
            method: "POST", target: "/rps/pass1?x=1",
            headers: [
                .init("Content-Type", "application/json"), .init("X-Seen", "1"), .init("x-seen", "2"),
                .init("Empty", ""),
            ], body: Array("{}".utf8))
        let headers = request.httpHeaders
        #expect(
            headers.fields == [
                .init(name: "Content-Type", value: "application/json"), .init(name: "X-Seen", value: "1"),
                .init(name: "x-seen", value: "2"), .init(name: "Empty", value: ""),
            ])
        #expect(headers.values(for: "x-seen") == ["1", "2"])
        #expect(PlainHTTPServer.Request(method: "GET", target: "/", headers: [], body: []).httpHeaders.isEmpty)
    }

    @Test func aResponseBecomesTheAnswer() {
        var fields = HTTPHeaders()
        fields.append(name: "Set-Cookie", value: "a=1")
        fields.append(name: "Content-Type", value: "text/plain")
        fields.append(name: "set-cookie", value: "b=2")
        let response = HTTPResponse(
            status: 418, headers: fields, body: [0x00, 0xFF, 0x41],
            timings: nil)
        let answer = PlainHTTPServer.Response(response)
        #expect(
            answer
                == PlainHTTPServer.Response(
                    status: 418,
                    headers: [
                        .init("Set-Cookie", "a=1"), .init("Content-Type", "text/plain"),
                        .init("set-cookie", "b=2"),
                    ], body: [0x00, 0xFF, 0x41]))
        #expect(PlainHTTPServer.Response(HTTPResponse(status: 204)) == PlainHTTPServer.Response(status: 204))
    }
}
