import OrderedJSON
import SDKSeams
import Testing

@testable import FlowRecording

/// A recorded response that cannot go on the wire (a cassette built in code may hold one; a file
/// cannot, the reader refuses it) is answered 500 saying why: before, its status or its 100,000
/// header fields reached the HTTP server, which trapped.
@Suite struct CassettePlaybackLimitsTests {
    func answer(status: Int = 200, headers: HTTPHeaders = [:]) -> CassettePlayback.Answer {
        let event = CassetteEvent(
            .http(
                .init(
                    request: .init(method: "GET", url: "http://127.0.0.1:8005/rps/x"),
                    response: .init(status: status, headers: headers, body: Array("{}".utf8)))))
        let playback = CassettePlayback(cassette: CassettePlaybackTests.cassette([event]), name: "bad.json")
        return playback.answer(method: "GET", target: "/rps/x")
    }

    @Test func aStatusOutsideThreeDigitsIsAnswered500() throws {
        for status in [-1, 0, 99, 1000, Int.max] {
            let found = answer(status: status)
            #expect(found.status == 500 && found.eventIndex == 0, "\(status)")
            #expect(
                found.log
                    == "GET /rps/x -> 500 (the recorded response cannot be sent: status \(status) is not an HTTP status (100 to 999)), event 0 (sdk)"
            )
            let body = try JSONParser.parse(found.body)
            #expect(body["error"] == "recorded response cannot be sent")
        }
        #expect(answer(status: 999).status == 999 && answer(status: 100).status == 100)
    }

    @Test func tooManyOrMalformedHeaderFieldsAreAnswered500() {
        let many = HTTPHeaders((0..<100_000).map { HTTPHeaders.Field(name: "X-\($0)", value: "v") })
        let found = answer(headers: many)
        #expect(found.status == 500 && found.log.contains("100000 header fields; a response has at most 1000"))
        #expect(answer(headers: HTTPHeaders([.init(name: "Bad Name", value: "v")])).status == 500)
        #expect(answer(headers: HTTPHeaders([.init(name: "X", value: "a\r\nInjected: 1")])).status == 500)
        #expect(answer(headers: HTTPHeaders([.init(name: "X", value: "a\tb")])).status == 200)
    }

    /// Before: every miss was kept, so a client sending requests without end grew the server's memory without end.
    @Test func missesBeyondTheListedOnesAreCountedOnly() throws {
        let playback = CassettePlayback(cassette: CassettePlaybackTests.poll, name: "poll.json")
        for number in 0..<(CassettePlayback.maximumListedMisses + 5) {
            _ = playback.answer(method: "GET", target: "/nothing/\(number)")
        }
        let summary = playback.summary
        #expect(
            summary.misses.count == 1_000 && summary.unlistedMisses == 5 && summary.missCount == 1_005
                && !summary.passed)
        #expect(summary.text.contains("1005 unmatched requests") && summary.text.contains("  … and 5 more"))
        #expect(try JSONParser.parse(playback.summaryJSON)["unlistedMisses"] == 5)
    }
}
