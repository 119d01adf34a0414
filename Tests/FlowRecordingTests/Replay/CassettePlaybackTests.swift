import OrderedJSON
import SDKSeams
import Testing

@testable import FlowRecording

/// `serve --cassette`'s engine: method + path matching in recorded order, repeats, misses with the
/// closest recorded request, transport errors, origin rewriting, the summary.
@Suite struct CassettePlaybackTests {
    static let origin = "http://127.0.0.1:8005"

    static func exchange(
        _ method: String, _ path: String, status: Int = 200, body: String = "", request: String = "",
        actor: EventActor = .sdk
    ) -> CassetteEvent {
        CassetteEvent(
            actor: actor, step: .init(index: 0, name: "s"),
            .http(
                .init(
                    request: .init(method: method, url: origin + path, body: Array(request.utf8)),
                    response: .init(
                        status: status, headers: ["Content-Type": "application/json", "Content-Length": "99"],
                        body: Array(body.utf8)))))
    }

    static func cassette(_ events: [CassetteEvent]) -> Cassette {
        var cassette = Fixtures.header()
        cassette.backend.url = origin
        cassette.events = events
        return cassette
    }

    static let poll = cassette([
        exchange("GET", "/rps/clientSettings", body: #"{"registerURL": "http://127.0.0.1:8005/rps/user"}"#),
        exchange("POST", "/rps/access", status: 401, actor: .browser),
        exchange("POST", "/rps/pass1", body: #"{"y": "01"}"#, request: #"{"U": "04aa", "mpin_id": "bob"}"#),
        exchange("POST", "/rps/access", body: #"{"status": "authenticate"}"#, actor: .browser),
        exchange("POST", "/admin/revoke", actor: .admin),
        CassetteEvent(.call(.init(name: "initialize", status: .init(code: "OK")))),
    ])

    @Test func servesEachRouteInRecordedOrderAndRepeatsTheLast() {
        let playback = CassettePlayback(cassette: Self.poll, name: "poll.json", servedOrigin: "http://127.0.0.1:4000")
        #expect(playback.offered == 4)  // the admin's exchange is not a client's
        #expect(playback.routeList == ["GET /rps/clientSettings", "POST /rps/access", "POST /rps/pass1"])
        let first = playback.answer(method: "POST", target: "/rps/access?x=1")
        #expect(first.kind == .recorded && first.status == 401 && first.eventIndex == 1)
        #expect(first.response == HTTPResponse(status: first.status, headers: first.headers, body: first.body))
        let second = playback.answer(method: "post", target: "/rps/access")
        #expect(second.status == 200 && second.eventIndex == 3)
        let third = playback.answer(method: "POST", target: "/rps/access")
        #expect(third.kind == .repeated && third.eventIndex == 3 && third.log.contains("repeated"))
        // Out of order across routes is fine in route order.
        let settings = playback.answer(method: "GET", target: "/rps/clientSettings")
        #expect(String(decoding: settings.body, as: UTF8.self) == #"{"registerURL": "http://127.0.0.1:4000/rps/user"}"#)
        #expect(settings.headers["Content-Length"] == nil && settings.headers["Content-Type"] == "application/json")
        #expect(!playback.isComplete)
        let summary = playback.summary
        #expect(summary.served == 3 && summary.repeats == 1 && summary.misses.isEmpty && !summary.passed)
        #expect(summary.unserved == [#"event 2 (sdk, step 0 "s"): POST /rps/pass1"#])
        _ = playback.answer(method: "POST", target: "/rps/pass1", body: Array(#"{"mpin_id": "bob", "U": "04bb"}"#.utf8))
        #expect(playback.isComplete && playback.summary.passed)
        playback.reset()
        #expect(playback.summary.served == 0 && playback.answer(method: "POST", target: "/rps/access").status == 401)
    }

    @Test func aMissIsAnswered404WithTheClosestRecordedRequest() {
        let playback = CassettePlayback(cassette: Self.poll, name: "poll.json")
        let wrongMethod = playback.answer(method: "PUT", target: "/rps/pass1")
        #expect(wrongMethod.kind == .miss && wrongMethod.status == 404 && wrongMethod.eventIndex == nil)
        let text = String(decoding: wrongMethod.body, as: UTF8.self)
        #expect(
            text.contains(#""request": "PUT /rps/pass1""#) && text.contains("the method differs")
                && text.contains("poll.json"))
        let wrongPath = playback.answer(method: "POST", target: "/rps/pass2")
        #expect(
            wrongPath.log.hasPrefix("MISS POST /rps/pass2")
                && wrongPath.log.contains("POST /rps/pass1 (the path differs after 1 segment)"))
        #expect(
            playback.answer(method: "GET", target: "/nothing/like/it").log
                == "MISS GET /nothing/like/it: no recorded exchange matches")
        #expect(playback.summary.misses.count == 3 && !playback.summary.passed)
    }

    @Test func sequentialOrderWantsTheNextRecordedExchange() {
        let playback = CassettePlayback(cassette: Self.poll, name: "poll.json", order: .sequential)
        #expect(playback.answer(method: "GET", target: "/rps/clientSettings").status == 200)
        let early = playback.answer(method: "POST", target: "/rps/pass1")
        #expect(early.kind == .miss && early.log.contains(#"expected event 1 (browser, step 0 "s"): POST /rps/access"#))
        #expect(playback.answer(method: "POST", target: "/rps/access").eventIndex == 1)
        #expect(playback.answer(method: "POST", target: "/rps/pass1").eventIndex == 2)
        #expect(playback.answer(method: "POST", target: "/rps/access").eventIndex == 3)
        #expect(
            playback.answer(method: "POST", target: "/rps/access").log.contains("all 4 recorded exchanges were served"))
    }

    @Test func recordedTransportErrorsAnswer502AndActorsCanBeChosen() {
        let failed = CassetteEvent(
            .http(
                .init(
                    request: .init(method: "GET", url: Self.origin + "/rps/clientSettings"),
                    error: .init(kind: "timedOut", message: "Operation timed out"))))
        let playback = CassettePlayback(
            cassette: Self.cassette([failed, Self.exchange("POST", "/admin/revoke", actor: .admin)]),
            name: "t.json", actors: [.sdk, .admin])
        #expect(playback.offered == 2)
        let answer = playback.answer(method: "GET", target: "/rps/clientSettings")
        #expect(answer.kind == .transportError && answer.status == 502)
        #expect(
            String(decoding: answer.body, as: UTF8.self).contains("Operation timed out")
                && answer.log.contains("timedOut"))
    }

    @Test func bodyNotesNameShapeChangesAndOnlyListValueChanges() {
        #expect(CassettePlayback.bodyNote(recorded: Array(#"{"a": 1}"#.utf8), received: Array(#"{"a":1}"#.utf8)) == nil)
        let values = CassettePlayback.bodyNote(
            recorded: Array(#"{"U": "04aa", "V": "04bb"}"#.utf8), received: Array(#"{"U": "04cc", "V": "04dd"}"#.utf8))
        #expect(values == "other values than recorded at $.U, $.V")
        let shape = CassettePlayback.bodyNote(
            recorded: Array(#"{"U": "04aa", "n": 1}"#.utf8), received: Array(#"{"U": 4, "x": true}"#.utf8))
        #expect(
            shape?.contains("$.U: expected \"04aa\", got 4") == true && shape?.contains("$.n: missing") == true
                && shape?.contains("$.x: unexpected") == true)
        #expect(
            CassettePlayback.bodyNote(recorded: Array("abc".utf8), received: Array("abcd".utf8))
                == "request body differs from the recorded one (4 B, recorded 3 B)")
    }

    @Test func summaryJSONIsReadableByOtherPlatforms() throws {
        let playback = CassettePlayback(cassette: Self.poll, name: "poll.json")
        _ = playback.answer(method: "GET", target: "/x")
        let document = try JSONParser.parse(playback.summaryJSON)
        #expect(document["offered"] == 4 && document["served"] == 0 && document["passed"] == false)
        #expect(document["misses"]?.arrayValue?.count == 1 && document["unserved"]?.arrayValue?.count == 4)
    }
}
