import FlowRecording
import MPinSDK
import MilagroProtocol
import OrderedJSON
import SDKSeams
import Synchronization

/// What a running case works with: the backend, the transports (paced, counted and recorded into
/// the case's cassette), the run's randomness and clocks, the users' prefix, and the operator's
/// means (`/admin/*`, `--activation-code`). One context per case.
public final class ConformanceContext: Sendable {
    /// The backend's base URL, without a trailing `/`.
    public let backendURL: String
    /// The RPS prefix of the client settings' URL (`rps`).
    public let rpsPrefix: String
    /// The case being run.
    public let caseID: String
    /// The prefix of every user the case creates (`conform-<run id>`).
    public let userPrefix: String
    /// An activation code given on the command line, for a backend that wants one to register.
    public let activationCode: String?
    /// The MFA platform's authorize URL, for the access code a registration there needs.
    public let authorizeURL: String?
    /// Whether the backend answered the operator endpoints (`GET /admin/counts` 200).
    public let hasOperatorEndpoints: Bool
    public let random: any RandomSource
    /// The clock the SDK clients read.
    public let sdkClock: any SDKClock
    /// The clock of the suite's waits.
    public let clock: any ConformanceClock
    let paced: PacedTransport
    /// What the recorder wraps: the case's boundary over its pacer.
    let wire: any HTTPTransport
    let recorder: Recorder
    private let users = Mutex(0)
    private let cachedSettings = Mutex<JSONValue?>(nil)

    init(
        backendURL: String, rpsPrefix: String, caseID: String, userPrefix: String, activationCode: String?,
        authorizeURL: String?,
        hasOperatorEndpoints: Bool, random: any RandomSource, sdkClock: any SDKClock, clock: any ConformanceClock,
        paced: PacedTransport, wire: any HTTPTransport, recorder: Recorder
    ) {
        var url = backendURL
        while url.hasSuffix("/") { url.removeLast() }
        self.backendURL = url
        self.rpsPrefix = rpsPrefix
        self.caseID = caseID
        self.userPrefix = userPrefix
        self.activationCode = activationCode
        self.authorizeURL = authorizeURL
        self.hasOperatorEndpoints = hasOperatorEndpoints
        self.random = random
        self.sdkClock = sdkClock
        self.clock = clock
        self.paced = paced
        self.wire = wire
        self.recorder = recorder
    }

    // MARK: - Users

    /// A new user id: `<prefix>-<case id>-<n>` (the case id's dots as dashes), so that every user
    /// the suite leaves on a server is recognisable.
    public func newUserID() -> String {
        let n = users.withLock { count in
            count += 1
            return count
        }
        return "\(userPrefix)-\(caseID.replacing(".", with: "-"))-\(n)"
    }

    // MARK: - Raw requests

    /// A URL of the backend: `path` starting with `/` is prefixed with the backend URL; an
    /// absolute URL is kept.
    public func url(_ path: String) -> String {
        path.hasPrefix("/") ? backendURL + path : path
    }

    /// Sends one request as the phone (`sdk`), the browser or the operator, recorded in the case's
    /// cassette. A transport failure is `ConformanceError.transport` (or `budgetExhausted`).
    public func send(
        _ method: HTTPMethod, _ path: String, body: [UInt8] = [], headers: HTTPHeaders = [:],
        as actor: EventActor = .sdk
    ) async throws(ConformanceError) -> HTTPResponse {
        var headers = headers
        if method != .get && !body.isEmpty {
            headers.addIfAbsent(name: "Content-Type", value: "application/json; charset=UTF-8")
        }
        let request = HTTPRequest(method: method, url: url(path), headers: headers, body: body, timeout: 30)
        do {
            return try await transport(as: actor).send(request)
        } catch {
            if paced.refused { throw .budgetExhausted(error.message) }
            throw .transport(error)
        }
    }

    /// Sends a JSON body (written compactly, members in order).
    public func send(
        _ method: HTTPMethod, _ path: String, json: JSONValue, headers: HTTPHeaders = [:],
        as actor: EventActor = .sdk
    ) async throws(ConformanceError) -> HTTPResponse {
        try await send(method, path, body: Array(JSONWriter.compact(json).utf8), headers: headers, as: actor)
    }

    /// Sends a request as it was captured (a replay), through the case's recording.
    public func resend(_ request: HTTPRequest, as actor: EventActor = .sdk) async throws(ConformanceError)
        -> HTTPResponse
    {
        do {
            return try await transport(as: actor).send(request)
        } catch {
            if paced.refused { throw .budgetExhausted(error.message) }
            throw .transport(error)
        }
    }

    /// The recording transport of one actor.
    func transport(as actor: EventActor) -> any HTTPTransport {
        recorder.transport(wrapping: wire, actor: actor)
    }

    // MARK: - Client settings

    /// `GET /<rpsPrefix>/clientSettings` as a JSON object, read once per case.
    public func settings() async throws(ConformanceError) -> ClientSettingsView {
        if let kept = cachedSettings.withLock({ $0 }) { return ClientSettingsView(json: kept, backendURL: backendURL) }
        let response = try await send(.get, "/\(rpsPrefix)/clientSettings")
        guard response.status == 200, let json = response.json, json.objectMembers != nil else {
            throw .setup(
                "GET /\(rpsPrefix)/clientSettings answered \(response.status) \(response.excerpt), not a JSON object")
        }
        cachedSettings.withLock { $0 = json }
        return ClientSettingsView(json: json, backendURL: backendURL)
    }

    /// The absolute URL of a client-settings key, or an error naming the key: a set-up failure,
    /// or `unimplemented` for a key of an optional feature (`optional`).
    public func settingURL(_ key: ClientSettingsKey, optional: Bool = false) async throws(ConformanceError) -> String {
        guard let url = try await settings().url(key), !url.isEmpty else {
            throw optional
                ? .unimplemented("the client settings have no '\(key.rawValue)'")
                : .setup("the client settings have no '\(key.rawValue)'")
        }
        return url
    }

    // MARK: - MFA platform

    /// An access code for a registration on the MFA platform (`POST authorizeURL {}`, the code
    /// after `#` of its `qrURL`, docs/protocol.md §3.8); nil for a backend that needs none (no
    /// `codeStatusURL` in its settings, or no authorize URL given).
    public func registrationAccessCode() async throws(ConformanceError) -> String? {
        guard let authorizeURL, try await settings()[.codeStatusURL] != nil else { return nil }
        let response = try await send(.post, authorizeURL, json: .object([]), as: .browser)
        guard response.status == 200, let qr = response.json?["qrURL"]?.stringValue, let hash = qr.lastIndex(of: "#")
        else {
            throw .setup("the authorize URL answered \(response.summary)")
        }
        return String(qr[qr.index(after: hash)...])
    }

    // MARK: - Operator

    /// Asks the operator endpoint `/admin/<operation>`; `needsOperator` when the backend has none.
    public func operatorCall(_ method: HTTPMethod, _ operation: String, json: JSONValue? = nil, query: String = "")
        async throws(ConformanceError) -> HTTPResponse
    {
        guard hasOperatorEndpoints else {
            throw .needsOperator(
                "the backend has no operator endpoints (/admin/\(operation)); this case cannot \(operation) a user on it"
            )
        }
        let path = "/admin/\(operation)" + (query.isEmpty ? "" : "?" + query)
        if let json { return try await send(method, path, json: json, as: .admin) }
        return try await send(method, path, as: .admin)
    }
}

/// The client settings of a backend, read as the SDK reads them (docs/protocol.md §1, §2): a string that
/// starts with `/` is prefixed with the backend URL.
public struct ClientSettingsView: Sendable {
    public let json: JSONValue
    let backendURL: String

    public subscript(key: ClientSettingsKey) -> JSONValue? { json[key.rawValue] }

    /// The key's string with relative URLs made absolute; nil when absent or not a string.
    public func url(_ key: ClientSettingsKey) -> String? {
        guard let text = json[key.rawValue]?.stringValue else { return nil }
        if text.hasPrefix("/") { return backendURL + text }
        return text.replacing("wss://", with: "https://").replacing("ws://", with: "http://")
    }

    /// `usePermits`, true when absent (docs/protocol.md §2).
    public var usesPermits: Bool { json[ClientSettingsKey.usePermits.rawValue]?.boolValue ?? true }
}
