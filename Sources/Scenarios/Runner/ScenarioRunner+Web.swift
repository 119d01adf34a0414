import CommonFormats
import FlowRecording
import Foundation
import MPinSDK
import MilagroProtocol
import OrderedJSON

extension ScenarioRunner {
    /// A `browser` or `admin` step: one or more HTTP requests through the actor's transport. The
    /// outputs are the top-level members of the JSON answer (plus `accessCode` and `landingURL` of
    /// a QR URL); a `call` event with the outputs closes the step in the cassette. The paths are
    /// MilagroProtocol's `Endpoint`s; the switch names every browser and admin action.
    func httpStep(_ step: ScriptStep, _ action: StepAction, _ arguments: [String: String]) async throws(ScenarioFailure)
        -> StepOutcome
    {
        let actor: EventActor
        switch action {
        case .browser: actor = .browser
        case .admin: actor = .admin
        case .sdk, .clock, .device: throw failure(step, "\(action) is not an HTTP request")
        }
        let transport = environment.transport(actor)
        let base = environment.backendURL
        var last: (status: String, message: String, outputs: [(name: String, value: String)]) = ("", "", [])
        var responseHeaders = HTTPHeaders()
        var lastBody: [UInt8]?
        func send(_ method: HTTPMethod, _ url: String, body: String?, cookie: String? = nil) async {
            var headers = HTTPHeaders()
            if body != nil { headers.append(name: "Content-Type", value: "application/json") }
            if let cookie { headers.append(name: "Cookie", value: cookie) }
            let request = HTTPRequest(method: method, url: url, headers: headers, body: Array((body ?? "").utf8))
            do throws(TransportError) {
                let response = try await transport.send(request)
                responseHeaders = response.headers
                lastBody = response.body
                last = (String(response.status), "", Self.members(response.body))
            } catch {
                lastBody = nil
                last = ("transport error", error.message, [])
            }
        }
        func json(_ pairs: [(String, String)]) -> String {
            JSONWriter.compact(.object(pairs.map { JSONValue.Member($0.0, .string($0.1)) }))
        }
        switch action {
        case .browser(.getAccessNumber):
            await send(.post, base + Endpoint.getAccessNumber.path, body: "{}")
        case .browser(.getQrUrl):
            await send(.post, base + Endpoint.getQrURL.path, body: "{}")
            if let qr = last.outputs.first(where: { $0.name == "qrUrl" || $0.name == "qrURL" })?.value,
                let hash = qr.lastIndex(of: "#")
            {
                last.outputs.append(("accessCode", String(qr[qr.index(after: hash)...])))
                last.outputs.append(("landingURL", String(qr[..<hash])))
            }
        case .browser(.poll):
            var attempts = 10
            if let text = arguments["attempts"] {
                switch ScriptLimits.attempts(text) {
                case .success(let count): attempts = count
                case .failure(let error): throw failure(step, error.description)
                }
            }
            let until = arguments["until"]
            for _ in 0..<attempts {
                await send(
                    .post, base + Endpoint.accessNumberPoll.path, body: json([("webOTT", arguments["webOTT"] ?? "")]))
                let status = last.outputs.first { $0.name == "status" }?.value
                if last.status != "200" || until == nil || status == until { break }
            }
            if let until, last.status == "200", last.outputs.first(where: { $0.name == "status" })?.value != until {
                last.message = "the session never reached \"\(until)\" in \(attempts) polls"
                last.status = "poll timed out"
            }
        case .browser(.accessNumberLogin):
            // The browser side of an access-number login as the Milagro SDK core's test helper plays
            // it (tests/common/access_number_thread.cpp): wait `interval`, poll `POST <path>
            // {"webOTT"}`, until an answer is 200 or `attempts` polls were made; then post
            // `{"mpinResponse": <the last poll's JSON answer, {} when it had none>}` to the client
            // settings' authenticateURL (`url`, relative to the backend's origin when it starts with /).
            var attempts = 5, interval = 1_000
            if let text = arguments["attempts"] {
                switch ScriptLimits.attempts(text) {
                case .success(let count): attempts = count
                case .failure(let error): throw failure(step, error.description)
                }
            }
            if let text = arguments["interval"] {
                switch ScriptLimits.interval(text) {
                case .success(let milliseconds): interval = milliseconds
                case .failure(let error): throw failure(step, error.description)
                }
            }
            var answer: JSONValue = .object([])
            var pollStatus = ""
            for _ in 0..<attempts {
                if environment.pacesPolls && interval > 0 { try? await Task.sleep(for: .milliseconds(interval)) }
                await send(
                    .post, base + (arguments["path"] ?? Endpoint.accessNumberPoll.path),
                    body: json([("webOTT", arguments["webOTT"] ?? "")]))
                pollStatus = last.status
                if last.status == "200" {
                    answer = lastBody.flatMap { try? JSONParser.parse($0) } ?? .object([])
                    break
                }
            }
            if case .object = answer {} else { answer = .object([]) }
            var target = arguments["url"] ?? ""
            if target.hasPrefix("/") { target = URLText.origin(of: base) + target }
            await send(.post, target, body: JSONWriter.compact(.object([.init("mpinResponse", answer)])))
            last.outputs.append(("pollStatus", pollStatus))
        case .browser(.authenticate):
            // The browser's PIN pad hands the authOTT it saw in its poll to the RPA, which logs the
            // browser session in and releases the phone's held login (docs/protocol.md §8.2, §8.3).
            let authOTT = JSONWriter.compact(.object([.init("authOTT", .string(arguments["authOTT"] ?? ""))]))
            await send(.post, base + Endpoint.rpaAuthenticate.path, body: "{\"mpinResponse\":\(authOTT)}")
            if let session = Self.cookie(Self.sessionCookie, in: responseHeaders) {
                last.outputs.append(("session", session))
            }
        case .browser(.session):
            await send(
                .get, base + Endpoint.session.path, body: nil,
                cookie: Self.sessionCookie + "=" + (arguments["session"] ?? ""))
        case .browser(.request), .admin(.request):
            let url = arguments["url"] ?? base + (arguments["path"] ?? "/")
            let method =
                HTTPMethod(rawValue: (arguments["method"] ?? (arguments["body"] == nil ? "GET" : "POST")).uppercased())
                ?? .get
            await send(method, url, body: arguments["body"])
        case .admin(.mailbox):
            await send(
                .get,
                QueryString.appending([("userId", arguments["userId"] ?? "")], to: base + Endpoint.adminMailbox.path),
                body: nil)
            if let listed = last.outputs.first(where: { $0.name == "messages" })?.value,
                let parsed = try? JSONParser.parse(listed), case .array(let messages) = parsed
            {
                last.outputs.append(("count", String(messages.count)))
                if let latest = messages.last, case .object(let members) = latest {
                    for member in members { last.outputs.append((member.name, Self.text(member.value))) }
                }
            }
        case .admin(.revoke):
            await send(.post, base + Endpoint.adminRevoke.path, body: json([("userId", arguments["userId"] ?? "")]))
        case .admin(.restore):
            await send(.post, base + Endpoint.adminRestore.path, body: json([("userId", arguments["userId"] ?? "")]))
        case .sdk, .clock, .device:
            throw failure(step, "\(action) is not an HTTP request")
        }
        // By name: a cassette keeps its script with sorted keys, so script order does not survive it.
        let ordered = arguments.keys.sorted().map { NamedField($0, arguments[$0]!) }
        environment.sink?.call(
            CassetteEvent.Call(
                name: step.action, arguments: ordered, status: .init(code: last.status, message: last.message),
                outputs: last.outputs.map { NamedField($0.name, $0.value) }), actor: actor)
        return StepOutcome(
            step: step, status: last.status, message: last.message, userState: nil, outputs: last.outputs)
    }

    /// The cookie of the browser session the demo RPA logs in.
    static let sessionCookie = "mpinSession"

    /// The value a `Set-Cookie` header gives the cookie `name`, if any (the first that does).
    static func cookie(_ name: String, in headers: HTTPHeaders) -> String? {
        headers.values(for: "Set-Cookie").lazy.compactMap { Cookies.value(named: name, inSetCookie: $0) }.first
    }

    /// The top-level members of a JSON object body, as text.
    static func members(_ body: [UInt8]) -> [(name: String, value: String)] {
        guard let value = try? JSONParser.parse(body), case .object(let members) = value else { return [] }
        return members.map { ($0.name, text($0.value)) }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        default: JSONWriter.compact(value)
        }
    }
}
