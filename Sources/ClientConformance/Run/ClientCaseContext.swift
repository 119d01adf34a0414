import Conformance
import FlowRecording
import MPinCrypto
import OrderedJSON
import ReferenceBackend
import SDKSeams

/// What a running case works with: the driver, the backend started for the case (its services:
/// the client secret it gives, the days), the other origins, the case's log of exchanges and
/// calls, its user and PIN, its working folder and the runs' time limit. One context per case.
package final class ClientCaseContext: Sendable {
    package let caseID: String
    package let profile: ClientProfile
    let driver: any ClientDriver
    package let backend: ReferenceBackend
    package let services: FaultServices
    /// The backend's base URL (`MPIN_BACKEND`).
    package let backendURL: String
    package let origins: FaultOrigins
    let log: ExchangeLog
    /// The case's user (`MPIN_USER`) and its PIN.
    package let user: String
    package let pin: String
    /// A PIN that is not the user's.
    package let wrongPIN: String
    /// The case's working folder.
    let folder: String
    let timeLimit: Double
    /// Carries the suite's own requests (the browser's, the operator's).
    let transport: any HTTPTransport
    package let activation: ActivationMode

    init(
        caseID: String, profile: ClientProfile, driver: any ClientDriver, backend: ReferenceBackend,
        origins: FaultOrigins, log: ExchangeLog, user: String, pin: String, folder: String, timeLimit: Double,
        transport: any HTTPTransport, activation: ActivationMode
    ) {
        self.caseID = caseID
        self.profile = profile
        self.driver = driver
        self.backend = backend
        services = backend.faultServices
        backendURL = backend.baseURL
        self.origins = origins
        self.log = log
        self.user = user
        self.pin = pin
        wrongPIN = String(format4((Int(pin) ?? 0) + 1))
        self.folder = folder
        self.timeLimit = timeLimit
        self.transport = transport
        self.activation = activation
    }

    // MARK: - Running the client

    /// Whether a run's registration gets the code the backend mailed (code activation).
    package enum ActivationCode: Sendable {
        /// The suite asks for a code and passes it in `MPIN_ACTIVATION_CODE` (code activation only).
        case mailed
        /// None is given.
        case none
    }

    /// Runs the client once: `flow` with the case's user and `pin` (the user's by default). The
    /// run's calls go into the log. A driver problem stops the case (`ClientCaseError.driver`), as
    /// does a client without the flow (`noFlow`).
    package func run(
        _ flow: ClientFlow, pin: String? = nil, accessNumber: String? = nil, activationCode: ActivationCode = .mailed
    ) async throws(ClientCaseError) -> DriverRun {
        var code: String?
        if activation == .code, activationCode == .mailed, [.register, .registerLogin].contains(flow) {
            code = try await mailedActivationCode()
        }
        let invocation = DriverInvocation(
            flow: flow, backendURL: backendURL, user: user, pin: pin ?? self.pin, accessNumber: accessNumber,
            activationCode: code,
            clientID: profile == .mfaPlatform ? ClientProfile.platformClientID : nil,
            authorizeURL: profile == .mfaPlatform
                ? backend.authorizeURL(clientID: ClientProfile.platformClientID) : nil,
            curve: services.curve, folder: folder, timeLimit: timeLimit)
        let run = await driver.run(invocation)
        log.add(run)
        if run.unimplemented { throw .noFlow(flow) }
        if run.problem != nil { throw .driver(run) }
        return run
    }

    /// Registers the case's user, which must work: the set-up of the cases that grade a login.
    package func registered() async throws(ClientCaseError) -> DriverRun {
        let run = try await run(.register)
        guard run.allOK else { throw .setup("the registration did not succeed (\(run))") }
        return run
    }

    /// The phone's access-number login (or its logout) while the suite plays the browser: it gets
    /// an access number, polls for the phone's authOTT (every 0.25 s, at most 4 minutes' worth,
    /// until the run ends) and logs the browser in at the RPA with it (docs/backend.md, "The held
    /// login"). `browser` false leaves the phone's login held with no browser.
    package func runWithBrowser(_ flow: ClientFlow, pin: String? = nil, browser: Bool = true)
        async throws(ClientCaseError) -> DriverRun
    {
        let session = try await newAccessNumber()
        guard browser else { return try await run(flow, pin: pin, accessNumber: session.accessNumber) }
        let done = Flag()
        let browserTask = Task { await self.browse(webOTT: session.webOTT, until: done) }
        do {
            let run = try await run(flow, pin: pin, accessNumber: session.accessNumber)
            done.set()
            _ = await browserTask.value
            return run
        } catch {
            done.set()
            _ = await browserTask.value
            throw error
        }
    }

    // MARK: - What the client sent

    /// The client's requests and their answers, in order.
    package var exchanges: [ObservedExchange] { log.clientExchanges }

    /// The client's requests to an endpoint.
    package func requests(to endpoint: Endpoint) -> [ObservedExchange] {
        exchanges.filter { $0.request.endpoint == endpoint }
    }

    /// The M-Pin ID and U of each pass 1 the client sent, in order (those whose body held both as hex).
    package var pass1: [(mpinID: [UInt8], u: [UInt8])] {
        requests(to: .pass1).compactMap { exchange in
            guard let json = try? JSONParser.parse(exchange.request.body),
                let id = json["mpin_id"]?.stringValue.flatMap(MPinCrypto.Hex.decode),
                let u = json["U"]?.stringValue.flatMap(MPinCrypto.Hex.decode)
            else { return nil }
            return (id, u)
        }
    }

    /// The M-Pin ID the backend issued the case's user (from the registration's answer), if any.
    package var mpinID: [UInt8]? {
        for exchange in requests(to: .register).reversed() {
            if let json = try? JSONParser.parse(exchange.answer.body),
                let id = json["mpinId"]?.stringValue.flatMap(MPinCrypto.Hex.decode)
            {
                return id
            }
        }
        return pass1.last?.mpinID
    }

    // MARK: - The suite's own part

    /// An activation code for the case's user: asked for as the app would (`POST
    /// /activationCode`) and read from the backend's mailbox, as the user reads the mail.
    func mailedActivationCode() async throws(ClientCaseError) -> String {
        let body = Array(JSONWriter.compact(.object([.init("userId", .string(user))])).utf8)
        _ = try await send(.post, backendURL + Endpoint.activationCode.path, body: body, as: "admin")
        guard let message = await backend.lastMessage(for: user), message.kind == .code else {
            throw .suite("the backend mailed no activation code for \(user)")
        }
        return message.value
    }

    /// A browser session's access number and webOTT (`getAccessNumberURL` of the settings).
    func newAccessNumber() async throws(ClientCaseError) -> (accessNumber: String, webOTT: String) {
        let url = try await settingURL("getAccessNumberURL")
        let response = try await send(.post, url, body: Array("{}".utf8), as: "browser")
        guard response.status == 200, let json = try? JSONParser.parse(response.body),
            let number = json["accessNumber"]?.stringValue, let webOTT = json["webOTT"]?.stringValue
        else {
            throw .suite("the backend gave the browser no access number (HTTP \(response.status))")
        }
        return (number, webOTT)
    }

    /// The browser's part of a held login: polls until it sees an authOTT, then logs in at the
    /// RPA with it; stops when `done` is set or after 960 polls.
    func browse(webOTT: String, until done: Flag) async {
        guard let poll = try? await settingURL("accessNumberURL"), let login = try? await settingURL("authenticateURL")
        else { return }
        let body = Array(JSONWriter.compact(.object([.init("webOTT", .string(webOTT))])).utf8)
        for _ in 0..<960 {
            if done.isSet { return }
            try? await Task.sleep(for: .milliseconds(250))
            guard let answer = try? await send(.post, poll, body: body, as: "browser"),
                let json = try? JSONParser.parse(answer.body)
            else { continue }
            if let authOTT = json["authOTT"]?.stringValue, !authOTT.isEmpty {
                let response = JSONValue.object([
                    .init("mpinResponse", .object([.init("authOTT", .string(authOTT))]))
                ])
                _ = try? await send(.post, login, body: Array(JSONWriter.compact(response).utf8), as: "browser")
                return
            }
        }
    }

    /// A URL of the client settings (as the browser reads them), made absolute.
    func settingURL(_ name: String) async throws(ClientCaseError) -> String {
        let response = try await send(.get, backendURL + Endpoint.clientSettings.path, as: "browser")
        guard let json = try? JSONParser.parse(response.body), let value = json[name]?.stringValue else {
            throw .suite("the client settings have no \(name)")
        }
        return value.hasPrefix("/") ? backendURL + value : value
    }

    /// Sends one of the suite's own requests, marked with its actor.
    func send(_ method: HTTPMethod, _ url: String, body: [UInt8] = [], as actor: String)
        async throws(ClientCaseError) -> HTTPResponse
    {
        var headers: HTTPHeaders = [ExchangeLog.actorField: actor]
        if method != .get { headers.append(name: "Content-Type", value: "application/json; charset=UTF-8") }
        if profile == .mfaPlatform { headers.append(name: "X-MIRACL-CID", value: ClientProfile.platformClientID) }
        do {
            return try await transport.send(
                HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: 30))
        } catch {
            throw .suite("\(method.rawValue) \(url): \(error)")
        }
    }
}

/// A PIN as four digits.
func format4(_ value: Int) -> String {
    let text = String(((value % 10_000) + 10_000) % 10_000)
    return String(repeating: "0", count: 4 - text.count) + text
}
