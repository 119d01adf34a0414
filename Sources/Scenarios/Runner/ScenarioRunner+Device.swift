import CommonFormats
import DeviceSecurity
import FlowRecording
import MilagroRecording
import SDKSeams
import Synchronization

/// The `device` actor of a run: one DeviceSecurity connector (memory store) over the
/// environment's `device` transport, random source and clock, made at its first step.
final class DeviceActor: Sendable {
    private struct State {
        var device: DeviceSecurity?
        var serviceURL: String?
        var timeout = DeviceSecurity.defaultTimeout
        var offlineOrigin: String?
        var answer: LoginAnswer?
    }

    let environment: ScenarioEnvironment
    let observer: CassetteObserver
    private let state = Mutex(State())

    init(environment: ScenarioEnvironment) {
        self.environment = environment
        observer = CassetteObserver(sink: environment.sink, actor: .device)
    }

    var defaultServiceURL: String { environment.backendURL + "/devicesecurity" }

    /// The connector, made on first use with the configured URL and time limit.
    func device() -> DeviceSecurity {
        state.withLock { state in
            if let device = state.device { return device }
            let url = state.serviceURL ?? defaultServiceURL
            let transport = OfflineSwitch(
                base: environment.transport(.device), serviceOrigin: URLText.origin(of: url),
                actor: self)
            let device = DeviceSecurity(
                serviceURL: url, transport: transport, store: MemoryDeviceStateStore(), clock: environment.clock,
                random: environment.random, observer: observer, timeout: state.timeout,
                loginProvider: { [weak self] _ in self?.takeAnswer() ?? .cancel })
            state.device = device
            return device
        }
    }

    func configure(url: String?, timeout: Double?) -> String? {
        state.withLock { state in
            guard state.device == nil else { return "configure must come before the device's first other step" }
            if let url { state.serviceURL = url }
            if let timeout { state.timeout = timeout }
            return nil
        }
    }

    func setOffline(_ origin: String?) { state.withLock { $0.offlineOrigin = origin } }
    var offlineOrigin: String? { state.withLock { $0.offlineOrigin } }

    func setAnswer(_ answer: LoginAnswer?) { state.withLock { $0.answer = answer } }
    func takeAnswer() -> LoginAnswer? { state.withLock { $0.answer } }
}

/// Sends the connector's requests to the service, or, while the device is offline, to the
/// offline origin (where nothing listens), through the recorded transport. It holds its actor
/// weakly: the actor holds the connector, which holds this transport, and a strong reference back
/// would keep all three alive after the run (one leaked connector per replay of a `device` script).
struct OfflineSwitch: HTTPTransport {
    let base: any HTTPTransport
    let serviceOrigin: String
    weak let actor: DeviceActor?

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let offline = actor?.offlineOrigin, request.url.hasPrefix(serviceOrigin) else {
            return try await base.send(request)
        }
        var rerouted = request
        rerouted.url = offline + request.url.dropFirst(serviceOrigin.count)
        return try await base.send(rerouted)
    }
}

extension ScenarioRunner {
    /// A `device` step: a DeviceSecurity call. The status is the result's `ServiceResult` flag
    /// names (`Success|ServiceSuccess`) for `registerDevice`, `applicationLogin` and `doLogin`,
    /// `OK` for the others; the outputs are `serviceResult`, `resCode`, (`hasAccess`,
    /// `loginShown`), `mvSessionId`, `accessIdentifier`, `deviceHash`, `deviceBorrowTime`.
    /// The switches name every `StepAction.Device`: an action without a handler does not compile.
    func deviceStep(_ step: ScriptStep, _ action: StepAction.Device, _ arguments: [String: String], actor: DeviceActor)
        async throws(ScenarioFailure) -> StepOutcome
    {
        func note(_ outputs: [(String, String)]) -> StepOutcome {
            let ordered = step.arguments.compactMap { argument in
                arguments[argument.name].map { NamedField(argument.name, $0) }
            }
            environment.sink?.call(
                CassetteEvent.Call(
                    name: step.action, arguments: ordered, status: .init(code: "OK"),
                    outputs: outputs.map { NamedField($0.0, $0.1) }), actor: .device)
            return StepOutcome(step: step, status: "OK", message: "", userState: nil, outputs: outputs)
        }
        switch action {
        case .configure:
            var timeout: Double?
            if let text = arguments["timeout"] {
                switch ScriptLimits.timeout(text) {
                case .success(let value): timeout = value
                case .failure(let error): throw failure(step, error.description)
                }
            }
            if let problem = actor.configure(url: arguments["url"], timeout: timeout) { throw failure(step, problem) }
            return note([("serviceURL", arguments["url"] ?? actor.defaultServiceURL)])
        case .goOffline:
            let origin = URLText.origin(of: arguments["url"] ?? "http://127.0.0.1:1")
            actor.setOffline(origin)
            return note([("origin", origin)])
        case .goOnline:
            actor.setOffline(nil)
            return note([])
        case .registerDevice, .applicationLogin, .doLogin, .excludeLoginGroup, .includeAllLoginGroups,
            .releaseApplicationUsage,
            .releaseDeviceRegistration:
            break
        }
        let device = actor.device()
        _ = actor.observer.takeResult()
        switch action {
        case .configure, .goOffline, .goOnline:
            break  // answered above
        case .registerDevice: await device.registerDevice(arguments["mvSessionID"] ?? "")
        case .applicationLogin: await device.applicationLogin(arguments["accessIdentifier"] ?? "")
        case .doLogin:
            if arguments["cancel"] == "true" {
                actor.setAnswer(.cancel)
            } else if let session = arguments["mvSessionID"] {
                actor.setAnswer(.sessionID(session))
            } else if let username = arguments["username"] {
                guard let group = LoginGroup(rawValue: arguments["group"] ?? "school") else {
                    throw failure(step, "group should be school, company or private")
                }
                actor.setAnswer(.credentials(username: username, password: arguments["password"] ?? "", group: group))
            } else {
                actor.setAnswer(nil)
            }
            await device.doLogin(arguments["accessIdentifier"] ?? "")
        case .includeAllLoginGroups:
            await device.includeAllLoginGroups()
        case .excludeLoginGroup:
            guard let group = LoginGroup(rawValue: arguments["group"] ?? "") else {
                throw failure(step, "group should be school, company or private")
            }
            await device.excludeLoginGroup(group)
        case .releaseApplicationUsage: await device.releaseApplicationUsage(arguments["accessIdentifier"] ?? "")
        case .releaseDeviceRegistration: await device.releaseDeviceRegistration()
        }
        guard let result = actor.observer.takeResult() else { throw failure(step, "the connector reported no result") }
        return StepOutcome(
            step: step, status: result.status.code, message: result.status.message, userState: nil,
            outputs: result.outputs.map { ($0.name, $0.value) })
    }
}
