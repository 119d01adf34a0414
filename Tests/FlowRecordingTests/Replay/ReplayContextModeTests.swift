import SDKSeams
import Testing

@testable import FlowRecording

/// Replay mode `context`, the rule of the C++ SDK core's harness player: requests are looked up by
/// method, URL and the task's request context, in any order; a repeated key is answered again from
/// its one exchange; every exchange must be asked for.
@Suite struct ReplayContextModeTests {
    static let base = "http://127.0.0.1:8005"

    static func exchange(_ method: String, _ path: String, _ context: String, status: Int, body: String = "")
        -> CassetteEvent
    {
        CassetteEvent(
            .http(
                .init(
                    request: .init(method: method, url: base + path),
                    response: .init(status: status, body: Array(body.utf8)), context: context)))
    }

    static func cassette(_ events: [CassetteEvent]) -> Cassette {
        var cassette = Fixtures.header(name: "context-mode")
        cassette.replayMode = .context
        cassette.events = events
        return cassette
    }

    static let recorded = cassette([
        exchange("GET", "/rps/clientSettings", "@testInit", status: 200, body: "{}"),
        exchange("POST", "/rps/pass1", "alice-1234@testAuthenticate1", status: 200, body: "{\"y\":\"1\"}"),
        exchange("POST", "/rps/pass1", "alice-1235@testAuthenticate1", status: 200, body: "{\"y\":\"2\"}"),
        exchange("POST", "/rps/accessnumber", "@testAuthenticateAN2", status: 401),
    ])

    static func send(_ replayer: Replayer, _ method: HTTPMethod, _ path: String, context: String) async -> Result<
        HTTPResponse, TransportError
    > {
        await ExchangeContext.$current.withValue(context) {
            do throws(TransportError) {
                return .success(try await replayer.transport().send(HTTPRequest(method: method, url: base + path)))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test func theKeyPicksTheExchangeInAnyOrderAndRepeatsAreAnsweredAgain() async throws {
        let replayer = try Replayer(cassette: Self.recorded)
        #expect(replayer.mode == .context && ReplayMode(name: "context") == .context)
        let second = await Self.send(replayer, .post, "/rps/pass1", context: "alice-1235@testAuthenticate1")
        #expect(try second.get().body == Array("{\"y\":\"2\"}".utf8))
        for _ in 0..<5 {
            #expect(
                try await Self.send(replayer, .post, "/rps/accessnumber", context: "@testAuthenticateAN2").get().status
                    == 401)
        }
        let first = await Self.send(replayer, .post, "/rps/pass1", context: "alice-1234@testAuthenticate1")
        #expect(try first.get().body == Array("{\"y\":\"1\"}".utf8))
        _ = await Self.send(replayer, .get, "/rps/clientSettings", context: "@testInit")
        try replayer.finish()
    }

    @Test func aKeyTheRecordingLacksFailsNamingIt() async throws {
        let replayer = try Replayer(cassette: Self.recorded, path: "x.json")
        let result = await Self.send(replayer, .post, "/rps/pass1", context: "alice-9999@testAuthenticate1")
        guard case .failure(let error) = result else {
            Issue.record("answered a key the recording lacks")
            return
        }
        #expect(error.message.contains("replay divergence"))
        #expect(throws: ReplayError.self) { try replayer.finish() }
        let report = replayer.failure?.report.summary ?? ""
        #expect(report.contains("\"POST \(Self.base)/rps/pass1 alice-9999@testAuthenticate1\""), "\(report)")
        #expect(
            report.contains("\"alice-1234@testAuthenticate1\" (#1)")
                && report.contains("\"alice-1235@testAuthenticate1\" (#2)"), "\(report)")
    }

    @Test func anExchangeNeverAskedForIsReported() async throws {
        let replayer = try Replayer(cassette: Self.recorded)
        _ = await Self.send(replayer, .get, "/rps/clientSettings", context: "@testInit")
        _ = await Self.send(replayer, .post, "/rps/pass1", context: "alice-1234@testAuthenticate1")
        do {
            try replayer.finish()
            Issue.record("finish passed with two exchanges never asked for")
        } catch {
            #expect(error.kind == .unusedEvents)
            #expect(error.report.summary.contains("2 recorded events unused"), "\(error.report.summary)")
            #expect(error.report.eventIndex == 2)
        }
    }

    /// Without a context the key is `method url ` (empty context), as the harness writes a request
    /// made outside its wrappers.
    @Test func noContextIsTheEmptyOne() async throws {
        let replayer = try Replayer(cassette: Self.cassette([Self.exchange("GET", "/x", "", status: 204)]))
        let answer = await replayer.transport().sendResult(HTTPRequest(method: .get, url: Self.base + "/x"))
        #expect(try answer.get().status == 204)
        try replayer.finish()
    }
}

extension ReplayTransport {
    fileprivate func sendResult(_ request: HTTPRequest) async -> Result<HTTPResponse, TransportError> {
        do throws(TransportError) {
            return .success(try await send(request))
        } catch {
            return .failure(error)
        }
    }
}
