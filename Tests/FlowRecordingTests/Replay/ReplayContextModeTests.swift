import SDKSeams
import Testing

@testable import FlowRecording

/// Replay mode `context`, the rule of the C++ SDK core's harness player: requests are looked up by
/// method, URL and the task's request context, in any order; a repeated key is answered again from
/// its one exchange; every exchange must be asked for.
@Suite struct ReplayContextModeTests {
    static let base = "http://127.0.0.1:8005"

    static func exchange(
        _ method: String, _ path: String, _ context: String, status: Int, body: String = "", sent: String = ""
    )
        -> CassetteEvent
    {
        CassetteEvent(
            .http(
                .init(
                    request: .init(method: method, url: base + path, body: Array(sent.utf8)),
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

    static func send(
        _ replayer: Replayer, _ method: HTTPMethod, _ path: String, context: String, body: String = ""
    ) async -> Result<
        HTTPResponse, TransportError
    > {
        await ExchangeContext.$current.withValue(context) {
            do throws(TransportError) {
                return .success(
                    try await replayer.transport().send(
                        HTTPRequest(method: method, url: base + path, body: Array(body.utf8))))
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
        #expect(error.kind == .replayDivergence && error.message.contains("not sent: the replay diverged at"))
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

    // MARK: - What the key does not pick: bodies, and where a different value came from

    /// A login, its pass 2 before it, and a registration whose answer the signature request reads.
    static func flow(fresh: [String] = ["U", "V"], authOTT: String = "73622ba06df3f5d52e7cb4966c7b5e93") -> Cassette {
        var cassette = cassette([
            exchange(
                "PUT", "/rps/user", "alice--@t", status: 200,
                body: #"{"regOTT": "dbaffdc18601beb8", "mpinId": "7b22"}"#,
                sent: #"{"userId": "alice", "mobile": 1}"#),
            exchange("GET", "/rps/signature/7b22?regOTT=dbaffdc18601beb8", "alice-@t", status: 200, body: "{}"),
            exchange(
                "POST", "/rps/pass1", "alice-1234@t", status: 200, body: #"{"y": "0b7d"}"#,
                sent: #"{"pass": 1, "mpin_id": "7b22", "U": "04aa"}"#),
            exchange(
                "POST", "/rps/pass2", "alice-1234@t", status: 200, body: #"{"authOTT": "\#(authOTT)", "pass": 2}"#,
                sent: #"{"pass": 2, "OTP": false, "WID": "0", "V": "04bb", "mpin_id": "7b22"}"#),
            exchange(
                "POST", "/mpinAuthenticate", "alice-1234@t", status: 200,
                sent: #"{"mpinResponse": {"authOTT": "73622ba06df3f5d52e7cb4966c7b5e93", "pass": 2}}"#),
        ])
        cassette.replayMode = .context(fresh: fresh)
        return cassette
    }

    /// The re-run of `flow`: other fresh values (`U`, `V`), every other member as recorded, the
    /// login carrying `authOTT`, the signature request `regOTT`.
    static func rerun(
        _ replayer: Replayer, u: String = "04cc", authOTT: String = "73622ba06df3f5d52e7cb4966c7b5e93",
        regOTT: String = "dbaffdc18601beb8"
    ) async -> [Result<HTTPResponse, TransportError>] {
        [
            await send(replayer, .put, "/rps/user", context: "alice--@t", body: #"{"userId":"alice","mobile":1}"#),
            await send(replayer, .get, "/rps/signature/7b22?regOTT=\(regOTT)", context: "alice-@t"),
            await send(
                replayer, .post, "/rps/pass1", context: "alice-1234@t",
                body: #"{"U":"\#(u)","mpin_id":"7b22","pass":1}"#),
            await send(
                replayer, .post, "/rps/pass2", context: "alice-1234@t",
                body: #"{"pass":2,"OTP":false,"WID":"0","V":"04dd","mpin_id":"7b22"}"#),
            await send(
                replayer, .post, "/mpinAuthenticate", context: "alice-1234@t",
                body: #"{"mpinResponse":{"pass":2,"authOTT":"\#(authOTT)"}}"#),
        ]
    }

    /// One byte changed in the recorded pass-2 authOTT: the login that carries it fails, and the
    /// report names the pass 2's answer (the mode compared no bodies and passed). The flow as
    /// recorded passes, with other fresh values and other spelling: bodies are compared by
    /// meaning, fresh members by kind and length.
    @Test func aTamperedAnswerFailsAtTheRequestThatCarriesItsValue() async throws {
        let untouched = try Replayer(cassette: Self.flow())
        #expect(await Self.rerun(untouched).allSatisfy { (try? $0.get()) != nil })
        try untouched.finish()

        let tampered = "73622ba06df3f5d52e7cb4966c7b5e94"
        let replayer = try Replayer(cassette: Self.flow(authOTT: tampered), path: "t.json")
        let answers = await Self.rerun(replayer, authOTT: tampered)
        #expect((try? answers[3].get()) != nil)
        guard case .failure = answers[4] else {
            Issue.record("the login with the tampered authOTT was answered")
            return
        }
        let error = try #require(replayer.failure)
        #expect(error.kind == .requestMismatch)
        #expect(error.report.eventIndex == 4)
        let text = error.report.text
        #expect(
            text.contains(
                #"body $.mpinResponse.authOTT: expected "73622ba06df3f5d52e7cb4966c7b5e93", got "\#(tampered)""#),
            "\(text)")
        #expect(text.contains("comes from the answer to POST /rps/pass2 at event 3 (sdk)"), "\(text)")
        #expect(text.contains("that answer was changed after recording"), "\(text)")
    }

    /// A value in the URL: the key is not found, the request is compared with the nearest one of
    /// its context, and the answer that holds the value sent is named.
    @Test func aTamperedValueInTheURLFailsAtTheNearestRecordedRequest() async throws {
        var cassette = Self.flow()
        guard case .http(var user) = cassette.events[0].payload else { return }
        user.response?.body = Array(#"{"regOTT": "dbaffdc18601beb9", "mpinId": "7b22"}"#.utf8)
        cassette.events[0].payload = .http(user)
        let replayer = try Replayer(cassette: cassette)
        _ = await Self.rerun(replayer, regOTT: "dbaffdc18601beb9")
        let error = try #require(replayer.failure)
        #expect(error.kind == .requestMismatch && error.report.eventIndex == 1, "\(error.report.text)")
        let text = error.report.text
        #expect(text.contains(#"url query regOTT: expected "dbaffdc18601beb8", got "dbaffdc18601beb9""#), "\(text)")
        #expect(text.contains("comes from the answer to PUT /rps/user at event 0 (sdk)"), "\(text)")
    }

    /// A fresh member of another kind or length, or missing, fails; its value alone does not.
    @Test func freshMembersKeepTheirKindAndLength() async throws {
        let shorter = try Replayer(cassette: Self.flow())
        _ = await Self.rerun(shorter, u: "04c")
        #expect(
            shorter.failure?.report.text.contains(
                "body $.U: expected a string of 4 characters (fresh randomness, its value not compared), got a string of 3 characters"
            ) == true, "\(shorter.failure?.report.text ?? "passed")")
        let missing = try Replayer(cassette: Self.flow())
        _ = await Self.send(missing, .put, "/rps/user", context: "alice--@t", body: #"{"userId":"alice","mobile":1}"#)
        _ = await Self.send(
            missing, .post, "/rps/pass1", context: "alice-1234@t", body: #"{"mpin_id":"7b22","pass":1}"#)
        #expect(
            missing.failure?.report.text.contains(
                "body $.U: missing (expected a string of 4 characters, fresh randomness)")
                == true, "\(missing.failure?.report.text ?? "passed")")
    }

    /// Without fresh members every value counts; `--mode context` keeps the cassette's own.
    @Test func theFreshMembersAreTheCassettes() async throws {
        let strict = try Replayer(cassette: Self.flow(fresh: []))
        _ = await Self.rerun(strict)
        #expect(
            strict.failure?.report.text.contains(#"body $.U: expected "04aa", got "04cc""#) == true,
            "\(strict.failure?.report.text ?? "passed")")
        let given = try Replayer(cassette: Self.flow(), mode: .context)
        _ = await Self.rerun(given)
        try given.finish()
        // The mode and its members survive the file.
        let read = try CassetteFile.decode(Array(Self.flow().canonicalText.utf8))
        #expect(read.replayMode == .context(fresh: ["U", "V"]))
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
