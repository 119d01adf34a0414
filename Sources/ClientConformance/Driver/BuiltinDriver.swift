import CurlTransport
import MPinCrypto
import MPinSDK
import SDKSeams

/// The driver of the project's own SDK (`conform --client builtin`): each run is a new
/// `MPinClient` on libcurl (`CurlTransport`), with its storage in the case's folder
/// (`FileStorage`), the system's clock, and its randomness from `seams.random` (the system's
/// generator). It makes the contract's calls for the flow (`ClientFlow.calls`), stops at the
/// first that does not return OK, and reports each with its status, as a process driver prints
/// them. The runs share this process: a generator that `seams.random` gives for a case's folder
/// is the one "process" of that case's runs.
///
/// `seams` lets a test build a client with one flaw on the SDK (a generator that repeats, a
/// transport that follows redirects, ...), and grade it as any other.
public struct BuiltinDriver: ClientDriver {
    /// What a run is made of.
    public struct Seams: Sendable {
        /// The randomness of a run, given the case's folder.
        public var random: @Sendable (_ folder: String) -> any RandomSource
        /// The transport of a run, given the libcurl one and the run's invocation.
        public var transport: @Sendable (_ base: any HTTPTransport, _ invocation: DriverInvocation) -> any HTTPTransport

        public init(
            random: @escaping @Sendable (_ folder: String) -> any RandomSource = { _ in SystemRandomSource() },
            transport:
                @escaping @Sendable (_ base: any HTTPTransport, _ invocation: DriverInvocation) -> any HTTPTransport =
                { base, _ in base }
        ) {
            self.random = random
            self.transport = transport
        }
    }

    public let name: String
    public let seams: Seams

    public init(name: String = "builtin (MPinSDK \(MPinClient.version) on libcurl)", seams: Seams = Seams()) {
        self.name = name
        self.seams = seams
    }

    public func run(_ invocation: DriverInvocation) async -> DriverRun {
        let started = ContinuousClock.now
        let limit = invocation.timeLimit
        let calls = CallLog()
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.flow(invocation, calls)
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int64(limit * 1000)))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let elapsed = started.duration(to: .now)
        return DriverRun(
            flow: invocation.flow, calls: calls.calls, problem: finished ? nil : .timedOut(limit),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The flow's calls, each reported; stops at the first that does not return OK.
    private func flow(_ invocation: DriverInvocation, _ log: CallLog) async {
        let platform = invocation.clientID != nil
        let base = CurlTransport(
            options: .init(defaultTimeout: min(invocation.timeLimit, 30), connectTimeout: 10))
        let client = MPinClient(
            transport: seams.transport(base, invocation), storage: FileStorage(directory: invocation.folder),
            random: seams.random(invocation.folder),
            options: .init(flavour: platform ? .mfaPlatform : .milagro, curve: invocation.curve))
        let step = Step(log: log)
        guard
            await step("initialize", { () async throws(MPinError) in try await client.initialize(configuration: [:]) })
        else { return }
        if let clientID = invocation.clientID {
            guard await step("setClientID", { () async throws(MPinError) in try await client.setClientID(clientID) })
            else { return }
        }
        guard
            await step(
                "setBackend", { () async throws(MPinError) in try await client.setBackend(invocation.backendURL) })
        else { return }
        switch invocation.flow {
        case .register:
            _ = await register(client, invocation, step)
        case .registerLogin:
            guard let user = await register(client, invocation, step) else { return }
            _ = await login(client, user, invocation, step)
        case .login, .wrongPIN, .otp, .accessNumber, .platformLogin:
            guard let user = await storedUser(client, invocation, step) else { return }
            _ = await login(client, user, invocation, step)
        case .logout:
            guard let user = await storedUser(client, invocation, step),
                await login(client, user, invocation, step)
            else { return }
            let done = await client.logout(user)
            log.add(DriverCall(name: "logout", status: done ? .ok : .flowError, message: done ? nil : "logout failed"))
        }
    }

    /// Registers the invocation's user (a user of that id in storage is deleted first, as a new
    /// registration replaces it); the user, or nil when a call failed.
    private func register(_ client: MPinClient, _ invocation: DriverInvocation, _ step: Step) async -> User? {
        if let old = try? await client.listUsers().first(where: { $0.id == invocation.user }) {
            try? await client.deleteUser(old)
        }
        var made: User?
        guard
            await step(
                "makeNewUser",
                { () async throws(MPinError) in made = try await client.makeNewUser(id: invocation.user) }),
            let user = made
        else { return nil }
        var accessCode = ""
        if let url = invocation.authorizeURL {
            guard
                await step(
                    "getAccessCode",
                    { () async throws(MPinError) in accessCode = try await client.getAccessCode(authorizationURL: url) }
                )
            else { return nil }
        }
        guard
            await step(
                "startRegistration",
                { () async throws(MPinError) in
                    try await client.startRegistration(
                        user, activateCode: invocation.activationCode ?? "", accessCode: accessCode)
                }),
            await step(
                "confirmRegistration", { () async throws(MPinError) in try await client.confirmRegistration(user) }),
            await step(
                "finishRegistration",
                { () async throws(MPinError) in try await client.finishRegistration(user, pin: invocation.pin) })
        else { return nil }
        return user
    }

    /// The user of the invocation's id in storage; a FLOW_ERROR call when there is none.
    private func storedUser(_ client: MPinClient, _ invocation: DriverInvocation, _ step: Step) async -> User? {
        var found: User?
        guard
            await step(
                "listUsers",
                { () async throws(MPinError) in
                    found = try await client.listUsers().first { $0.id == invocation.user }
                    if found == nil { throw MPinError(.flowError, "no user \(invocation.user) in storage") }
                })
        else { return nil }
        return found
    }

    /// The login of the invocation's flow; whether every call returned OK.
    private func login(_ client: MPinClient, _ user: User, _ invocation: DriverInvocation, _ step: Step) async -> Bool {
        let pin = invocation.pin
        var accessCode = ""
        if invocation.flow == .platformLogin {
            guard let url = invocation.authorizeURL else {
                step.log.add(DriverCall(name: "getAccessCode", status: .flowError, message: "no MPIN_AUTHORIZE_URL"))
                return false
            }
            guard
                await step(
                    "getAccessCode",
                    { () async throws(MPinError) in accessCode = try await client.getAccessCode(authorizationURL: url) }
                )
            else { return false }
        }
        guard
            await step(
                "startAuthentication",
                { () async throws(MPinError) in try await client.startAuthentication(user, accessCode: accessCode) })
        else { return false }
        switch invocation.flow {
        case .otp:
            return await step(
                "finishAuthenticationOTP",
                { () async throws(MPinError) in _ = try await client.finishAuthenticationOTP(user, pin: pin) })
        case .accessNumber, .logout:
            let number = invocation.accessNumber ?? ""
            return await step(
                "finishAuthenticationAN",
                { () async throws(MPinError) in
                    try await client.finishAuthenticationAN(user, pin: pin, accessNumber: number)
                })
        case .platformLogin:
            return await step(
                "finishAuthenticationAuthz",
                { () async throws(MPinError) in
                    _ = try await client.finishAuthenticationAuthz(user, pin: pin, accessCode: accessCode)
                })
        case .register, .login, .registerLogin, .wrongPIN:
            return await step(
                "finishAuthentication",
                { () async throws(MPinError) in _ = try await client.finishAuthentication(user, pin: pin) })
        }
    }
}

/// Runs one SDK call and reports it: OK, or the status it threw with its message.
private struct Step {
    let log: CallLog

    func callAsFunction(_ name: String, _ body: () async throws(MPinError) -> Void) async -> Bool {
        do {
            try await body()
            log.add(DriverCall(name: name, status: .ok))
            return true
        } catch {
            log.add(DriverCall(name: name, status: error.code, message: error.message))
            return false
        }
    }
}
