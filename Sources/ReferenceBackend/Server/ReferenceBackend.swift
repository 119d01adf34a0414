import Foundation
import Hummingbird
import Logging
import OrderedJSON
import ServiceLifecycle

/// A reference Milagro backend served in-process: RPS, two D-TAs, the demo RPA and the MFA
/// platform's endpoints on one real HTTP server (Hummingbird), verifying authentications with
/// the real pairing check.
///
/// ```swift
/// let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "demo"))
/// // point an SDK at backend.baseURL …
/// await backend.stop()
/// ```
///
/// Randomness comes from the configuration's seed (deterministic when given) and time from the
/// injected clock, so the same scenario against the same seed and clock gets the same answers.
public final class ReferenceBackend: Sendable {
    public let configuration: BackendConfiguration
    public let clock: any BackendClock
    let core: BackendCore
    private let task: Task<Void, any Error>
    private let group: ServiceGroup
    /// The bound port.
    public let port: Int

    /// Starts a backend and returns once it listens.
    /// - Parameters:
    ///   - configuration: host, port (0 for a free one), flavour, activation mode, seed, limits.
    ///   - clock: where time comes from.
    ///   - logLevel: the server's own log messages at this level and above go to standard error.
    ///   - logger: where the server logs instead, at the logger's own level (`logLevel` is then unused).
    ///   - logRequests: one line per request at `info` (method, path, status, duration, body bytes).
    ///   - onMail: called with each activation link or code the demo RPA "mails".
    public static func start(
        _ configuration: BackendConfiguration = BackendConfiguration(),
        clock: any BackendClock = SystemBackendClock(), logLevel: Logger.Level = .critical,
        logger: Logger? = nil, logRequests: Bool = false,
        onMail: @escaping @Sendable (ActivationMessage) -> Void = { _ in }
    ) async throws -> ReferenceBackend {
        if let problem = configuration.problem {
            throw ServerStartError(
                server: "reference backend",
                address: ServerHost.baseURL(host: configuration.host, port: configuration.port),
                reason: problem)
        }
        let core = BackendCore(configuration: configuration, clock: clock, mail: onMail)
        let (task, group, port) = try await ServerHost.start(
            BackendResponder(core: core), name: "reference backend", host: configuration.host,
            port: configuration.port,
            logger: logger ?? ServerHost.logger("mpin-workbench.reference-backend", logLevel),
            logRequests: logRequests, bodyDeadline: configuration.bodyTimeout)
        core.base.set(ServerHost.baseURL(host: configuration.host, port: port))
        var dta2: (task: Task<Void, any Error>, group: ServiceGroup)?
        if configuration.profile == .milagroOSS, configuration.dta2OwnOrigin {
            do {
                let started = try await ServerHost.start(
                    DTA2Responder(backend: BackendResponder(core: core)), name: "D-TA 2", host: configuration.host,
                    port: 0, logger: logger ?? ServerHost.logger("mpin-workbench.reference-backend", logLevel),
                    logRequests: logRequests, bodyDeadline: configuration.bodyTimeout)
                core.dta2Base.set(ServerHost.baseURL(host: configuration.host, port: started.port))
                dta2 = (started.task, started.group)
            } catch {
                await group.triggerGracefulShutdown()
                _ = await task.result
                throw error
            }
        }
        return ReferenceBackend(
            configuration: configuration, clock: clock, core: core, task: task, group: group, port: port, dta2: dta2)
    }

    private init(
        configuration: BackendConfiguration, clock: any BackendClock, core: BackendCore, task: Task<Void, any Error>,
        group: ServiceGroup, port: Int, dta2: (task: Task<Void, any Error>, group: ServiceGroup)?
    ) {
        self.configuration = configuration
        self.clock = clock
        self.core = core
        self.task = task
        self.group = group
        self.port = port
        self.dta2 = dta2
    }

    /// D-TA 2's own server (`BackendConfiguration.dta2OwnOrigin`).
    private let dta2: (task: Task<Void, any Error>, group: ServiceGroup)?

    /// D-TA 2's origin when it has one of its own, else nil (it answers under `/dta2/`).
    public var dta2URL: String? { core.dta2Base.url.isEmpty ? nil : core.dta2Base.url }

    /// `http://host:port`, the backend URL to give the SDK.
    public var baseURL: String { core.base.url }

    /// The phones' access-number or access-code logins currently held waiting for a browser
    /// (docs/protocol.md §8.2, §13): counted from just before the browser can see the authOTT in its
    /// `/rps/access` poll until the browser's `POST /mpinAuthenticate` releases the login or the
    /// login timeout ends it, in both cases before either answer is written. Thread-safe.
    public var heldLogins: Int { core.store.holds.count }

    /// Stops listening (a graceful shutdown: requests in progress are answered; held phone logins
    /// time out at once) and waits until the server has shut down.
    public func stop() async {
        core.store.holds.resolveAll()
        await group.triggerGracefulShutdown()
        if let dta2 { await dta2.group.triggerGracefulShutdown() }
        _ = await task.result
        if let dta2 { _ = await dta2.task.result }
    }

    /// Waits until the server stops (after `stop()` or a failure).
    public func wait() async {
        _ = await task.result
    }

    /// Every activation link or code "mailed" so far, oldest first.
    public func mailbox() async -> [ActivationMessage] {
        await core.store.mailbox
    }

    /// The latest activation message of a user.
    public func lastMessage(for userID: String) async -> ActivationMessage? {
        await core.store.mailbox.last { $0.userID == userID }
    }

    /// Revokes a user (every M-Pin ID of it): its time permits answer 410 from now on.
    public func revoke(userID: String) async {
        _ = await core.store.setRevoked(userID: userID, mpinID: nil, revoked: true)
    }

    /// Lifts a revocation.
    public func restore(userID: String) async {
        _ = await core.store.setRevoked(userID: userID, mpinID: nil, revoked: false)
    }

    /// The MFA platform's authorize URL for an app (`client_id`), as an app backend would make it.
    public func authorizeURL(
        clientID: String, redirectURI: String = "http://127.0.0.1/callback", state: String = "workbench"
    ) -> String {
        core.authorizeURL(clientID: clientID, redirectURI: redirectURI, state: state)
    }

    /// The app id and the settings the clients get, as name/value lines (for the serve banner).
    public var summary: [(String, String)] {
        var lines: [(String, String)] = [
            ("flavour", configuration.flavour.rawValue), ("profile", configuration.profile.rawValue),
            ("activation", configuration.activation.rawValue), ("login timeout", "\(configuration.loginTimeout) s"),
            ("seed", configuration.seed ?? "(none: system randomness)"), ("curve", configuration.curve.rawValue),
            ("appID", core.appID),
        ]
        if configuration.flavour == .mfaPlatform { lines.append(("customerId", core.customerID)) }
        for (key, value) in core.settingsMembers(seedValue: "(100 random bytes, new for each request)") {
            lines.append(("clientSettings." + key, String(decoding: JSONWriter.minified(value), as: UTF8.self)))
        }
        return lines
    }

    /// The check digit the backend appends to six digits (nil when it would be 10; such numbers are never issued).
    public static func accessNumberCheckDigit(_ sixDigits: String) -> Int? {
        BackendCore.checkDigit(sixDigits)
    }
}
