import CurlTransport
import FlowRecording
import Foundation
import MPinSDK
import OrderedJSON
import SDKSeams
@testable import Scenarios
import Synchronization

/// The HTTP side of `LegacyImportHarness`: what the Milagro SDK core's test harness
/// (`tests/common/http_recorder.cpp`) did, over our embedded backend.
///
/// Every exchange is written, as the harness wrote it, when its response has come, with the
/// harness's `context` (`<userId>-<pin>[-ARD|-OTP|-<access number>]@<test>` for the SDK's requests,
/// empty for the browser helper's) and the response as a Tornado 4.1 server sends it (`Server`,
/// `Date`, `Content-Type`, `Content-Length`; `WWW-Authenticate` on a 401).
///
/// The hosts are those of a real deployment, served by the one embedded backend:
/// * the main backend `main` (`http://127.0.0.1:8005`, the embedded backend's stable origin); its
///   client settings get absolute URLs, D-TA 2 and the time-permit storage on their own hosts, no
///   `usePermits`, as the open-source RPS writes them; the browser helper's older
///   `POST /rps/accessnumber` is the backend's `/rps/access`;
/// * `otherBackend`: another backend that answers its client settings (the embedded backend's,
///   with that host's URLs);
/// * `unreachableBackend`: a host whose name does not resolve (libcurl's error text);
/// * D-TA 2 at `https://dta2.mpin.example/v3/` (the embedded backend's `/dta2/`);
/// * the time-permit storage, an object store answering 404 for every permit, so that the SDK then
///   asks D-TA 2;
/// * the demo RPA answers an OTP login without the OTP's validity (`requestOTP` off, PROTOCOL §13);
/// * JSON bodies are spaced as Python's `json.dumps` writes them.
final class LegacyImportHarnessTransport: HTTPTransport {
    static let main = "http://127.0.0.1:8005"
    static let otherBackend = "https://mpin-demo.example"
    static let unreachableBackend = "https://unreachable.mpin.example"
    static let dta2 = "https://dta2.mpin.example/v3/"
    static let storage = "https://mpin-timepermits.s3.example/timepermits"
    static let unresolvedHost = "Couldn't resolve host name"

    private struct State {
        var context = ""
        var written: [JSONValue] = []
        /// The phone's `/rps/authenticate` of an access-number login: sent, and whether the
        /// browser has logged in (its answer is written after the browser's exchanges).
        var heldLoginSent = false
        var browserLoggedIn = false
        var holdsLogins = false
    }

    private let forward: StableOriginTransport
    private let direct: CurlTransport
    private let actualOrigin: String
    private let clock: FrozenClock
    private let state = Mutex(State())

    init(actualOrigin: String, clock: FrozenClock) {
        direct = CurlTransport(options: .init(defaultTimeout: 60, connectTimeout: 10))
        forward = StableOriginTransport(base: direct, stableOrigin: Self.main, actualOrigin: actualOrigin, clock: clock)
        self.actualOrigin = actualOrigin
        self.clock = clock
    }

    /// The context of the SDK's next requests.
    func setContext(_ context: String) {
        state.withLock { $0.context = context }
    }

    /// From now on the phone's next `POST /rps/authenticate` is a held login: its answer is
    /// written only once the browser has logged in (`browserLoggedIn()`).
    func expectHeldLogin() {
        state.withLock {
            $0.holdsLogins = true
            $0.heldLoginSent = false
            $0.browserLoggedIn = false
        }
    }

    func browserLoggedIn() {
        state.withLock { $0.browserLoggedIn = true }
    }

    /// Waits until the phone's held login has been sent and the backend shows it to the browser
    /// (its session in status `authenticate`), asking the backend directly: these probes are not
    /// the harness's and are not written.
    func waitForHeldLogin(webOTT: String) async throws {
        for _ in 0..<1000 {
            if state.withLock({ $0.heldLoginSent }) {
                let probe = HTTPRequest(method: .post, url: actualOrigin + "/rps/access", headers: ["Content-Type": "application/json"],
                                        body: Array(JSONWriter.compact(.object([.init("webOTT", .string(webOTT))])).utf8))
                let answer = try await direct.send(probe)
                if (try? JSONParser.parse(answer.body))?["status"]?.stringValue == "authenticate" { return }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError("the backend never showed the phone's held login to the browser")
    }

    /// The exchanges written so far, in the harness's JSON form.
    var written: [JSONValue] { state.withLock { $0.written } }

    // MARK: - Sending

    /// The SDK's requests.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let context = state.withLock { $0.context }
        let held = state.withLock { state -> Bool in
            guard state.holdsLogins, request.method == .post, request.url == Self.main + "/rps/authenticate" else { return false }
            state.heldLoginSent = true
            return true
        }
        let result: Result<HTTPResponse, TransportError>
        do {
            result = .success(try await answer(request, context: context))
        } catch {
            result = .failure(error)
        }
        if held {
            while !state.withLock({ $0.browserLoggedIn }) { try? await Task.sleep(for: .milliseconds(5)) }
            state.withLock { $0.holdsLogins = false }
        }
        write(request, context: context, result)
        return try result.get()
    }

    /// The browser helper's requests (no context).
    func browser(_ method: HTTPMethod, _ path: String, body: JSONValue) async throws -> HTTPResponse {
        let request = HTTPRequest(method: method, url: Self.main + path, headers: ["Content-Type": "application/json"],
                                  body: Array(JSONWriter.compact(body).utf8))
        let result: Result<HTTPResponse, TransportError>
        do {
            result = .success(try await answer(request, context: ""))
        } catch {
            result = .failure(error)
        }
        write(request, context: "", result)
        return try result.get()
    }

    private func answer(_ request: HTTPRequest, context: String) async throws(TransportError) -> HTTPResponse {
        let url = request.url
        if url.hasPrefix(Self.unreachableBackend + "/") {
            throw TransportError(kind: .hostNotFound, message: Self.unresolvedHost, url: url, code: 6)
        }
        if url.hasPrefix(Self.storage + "/") {
            let body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist."
                + "</Message><Key>" + String(url.dropFirst(Self.storage.count - "timepermits".count)) + "</Key></Error>"
            return HTTPResponse(status: 404, headers: [
                "Content-Type": "application/xml", "Date": CivilTime.httpDate(milliseconds: clock.nowMilliseconds()), "Server": "AmazonS3",
                "Content-Length": String(body.utf8.count),
            ], body: Array(body.utf8))
        }
        var outgoing = request
        var settingsHost: String?
        if url.hasPrefix(Self.dta2) {
            outgoing.url = Self.main + "/dta2/" + url.dropFirst(Self.dta2.count)
        } else if url == Self.otherBackend + "/rps/clientSettings" {
            outgoing.url = Self.main + "/rps/clientSettings"
            settingsHost = Self.otherBackend
        } else if url == Self.main + "/rps/clientSettings" {
            settingsHost = Self.main
        } else if url == Self.main + "/rps/accessnumber" {
            outgoing.url = Self.main + "/rps/access"
        } else if !url.hasPrefix(Self.main + "/") {
            throw TransportError(kind: .hostNotFound, message: Self.unresolvedHost, url: url, code: 6)
        }
        let response = try await forward.send(outgoing)
        var body = response.body
        if let host = settingsHost, let settings = try? JSONParser.parse(body) {
            body = Array(JSONWriter.compact(Self.settings(settings, host: host)).utf8)
        }
        if context.hasSuffix("-OTP@testAuthenticateOTP"), url == Self.main + "/mpinAuthenticate", response.status == 200,
           let answer = try? JSONParser.parse(body), let members = answer.objectMembers {
            body = Array(JSONWriter.compact(.object(members.filter { !["expireTime", "ttlSeconds", "nowTime"].contains($0.name) })).utf8)
        }
        // Python's json.dumps spacing, and Tornado's content types.
        var contentType = "text/html; charset=UTF-8"
        if let document = try? JSONParser.parse(body) {
            body = Array(JSONWriter.compact(document).utf8)
            contentType = "application/json; charset=UTF-8"
        }
        var headers: HTTPHeaders = [
            "Content-Length": String(body.count), "Content-Type": contentType,
            "Date": CivilTime.httpDate(milliseconds: clock.nowMilliseconds()), "Server": "TornadoServer/4.1",
        ]
        if response.status == 401 { headers.append(name: "WWW-Authenticate", value: "Authenticate") }
        return HTTPResponse(status: response.status, headers: headers, body: body)
    }

    /// Client settings as the open-source RPS writes them for `host`: absolute URLs, D-TA 2 and the
    /// time-permit storage on their own hosts, no `usePermits` (permits are always used),
    /// `requestOTP` off (the demo RPA's default), the browser's poll at the older `/rps/accessnumber`.
    static func settings(_ value: JSONValue, host: String) -> JSONValue {
        var members: [JSONValue.Member] = []
        for member in value.objectMembers ?? [] {
            switch member.name {
            case "usePermits", "timePermitsStorageURL": continue
            case "certivoxURL": members.append(.init(member.name, .string(dta2)))
            case "requestOTP": members.append(.init(member.name, .bool(false)))
            case "accessNumberURL": members.append(.init(member.name, .string(host + "/rps/accessnumber")))
            default:
                if let text = member.value.stringValue, text.hasPrefix("/") {
                    members.append(.init(member.name, .string(host + text)))
                } else {
                    members.append(member)
                }
            }
        }
        members.append(.init("timePermitsStorageURL", .string(storage)))
        return .object(members)
    }

    // MARK: - Writing

    private func write(_ request: HTTPRequest, context: String, _ result: Result<HTTPResponse, TransportError>) {
        let response: JSONValue
        switch result {
        case .success(let answer):
            response = .object([
                .init("success", .bool(true)), .init("error", .string("")), .init("httpStatus", .integer(answer.status)),
                .init("headers", .object(answer.headers.fields.map { .init($0.name, .string($0.value)) })),
                .init("data", .string(String(decoding: answer.body, as: UTF8.self))),
            ])
        case .failure(let error):
            response = .object([
                .init("success", .bool(false)), .init("error", .string(error.message)), .init("httpStatus", .integer(0)),
                .init("headers", .object([])), .init("data", .string("")),
            ])
        }
        let exchange: JSONValue = .object([
            .init("request", .object([
                .init("method", .string(request.method.rawValue)), .init("url", .string(request.url)),
                .init("data", .string(String(decoding: request.body, as: UTF8.self))), .init("context", .string(context)),
            ])),
            .init("response", response),
        ])
        state.withLock { $0.written.append(exchange) }
    }
}

/// Something the harness could not do.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
