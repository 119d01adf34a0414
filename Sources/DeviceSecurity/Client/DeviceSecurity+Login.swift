extension DeviceSecurity {
    /// Registers the device at MVID with a valid MV session id (`POST …/registerDevice`).
    ///
    /// `doLogin` calls it when needed. On `Success` the device keeps the device hash, the device
    /// borrow time and the session id; grants of an earlier registration are dropped (the device
    /// may now be mapped to another user).
    /// - Returns: `[.success, .serviceSuccess]`, `[.invalidMVSessionID, .serviceSuccess]`,
    ///   `.serviceFault` or `.networkError`.
    @discardableResult
    public func registerDevice(_ mvSessionID: String) async -> ServiceResult {
        await serialized { await register(mvSessionID) }
    }

    /// Logs the registered device in to an application (`POST …/applicationLogin`).
    ///
    /// Online, the service decides: `Success` (the grant and its borrow time are stored),
    /// `AccessDenied` (a stored grant is dropped), `DeviceBorrowTimeExpired` (the service no longer
    /// maps the device to a user: the device forgets its registration). Without an answer, the
    /// device decides from its stored state (`BorrowTime.offlineVerdict`): `NetworkError` plus
    /// `Success` within both borrow times, or plus the expired one(s). A device without a device
    /// hash gets `DeviceBorrowTimeExpired` without a request.
    @discardableResult
    public func applicationLogin(_ accessIdentifier: String) async -> ServiceResult {
        await serialized { await login(accessIdentifier) }
    }

    /// Starts the login: `applicationLogin`, and when the device is not (or no longer) registered,
    /// a login through the `LoginProvider`, `registerDevice` and `applicationLogin` again.
    ///
    /// The result, the bitwise OR of the results of every call made, is delivered as a
    /// `LoginResponse` on `responses` before this returns.
    /// - Returns: whether the login provider was asked (the document's "login view displayed");
    ///   not whether access was granted.
    @discardableResult
    public func doLogin(_ accessIdentifier: String) async -> Bool {
        await serialized { await startLogin(accessIdentifier) }
    }

    // MARK: - Implementations (run inside `serialized`)

    func register(_ mvSessionID: String) async -> ServiceResult {
        await reported("registerDevice", [.init("mvSessionID", mvSessionID)]) {
            let id = deviceID()
            let answer = await invoke("registerDevice", ["mvSessionId": mvSessionID, "deviceId": id])
            if answer.result.contains(.success), let hash = answer.string("deviceHash"), !hash.isEmpty {
                let now = now("registerDevice")
                update { state in
                    state.deviceHash = hash
                    state.deviceBorrowTime = answer.seconds("deviceBorrowTime")
                    state.mvSessionID = answer.string("mvSessionId") ?? mvSessionID
                    state.deviceConfirmedAt = now
                    state.applications = [:]
                }
            }
            return answer.result
        }
    }

    func login(_ accessIdentifier: String) async -> ServiceResult {
        await reported("applicationLogin", [.init("accessIdentifier", accessIdentifier)]) {
            update { $0.accessIdentifier = accessIdentifier }
            guard let hash = currentState().deviceHash else {
                serviceResCode = DeviceResultCode.noLogin
                serviceResMsg = "the device is not registered"
                return .deviceBorrowTimeExpired
            }
            let answer = await invoke("applicationLogin", ["deviceHash": hash, "accessIdentifier": accessIdentifier])
            if answer.result.contains(.networkError) {
                let now = now("offlineLogin")
                let verdict = BorrowTime.offlineVerdict(currentState(), accessIdentifier: accessIdentifier, now: now)
                if verdict == .success {
                    let grant = currentState().applications[accessIdentifier]!
                    let left = BorrowTime.remaining(since: grant.grantedAt, seconds: grant.borrowTime, now: now) / 1000
                    serviceResCode = DeviceResultCode.offlineGrant
                    serviceResMsg = "offline: access borrowed from the device state (\(left) s left)"
                } else {
                    serviceResMsg = "offline: " + verdict.description
                }
                return answer.result.union(verdict)
            }
            if answer.result.contains(.success) {
                let now = now("applicationLogin")
                update { state in
                    state.deviceConfirmedAt = now
                    if let borrow = answer.seconds("deviceBorrowTime") { state.deviceBorrowTime = borrow }
                    if let session = answer.string("mvSessionId") { state.mvSessionID = session }
                    state.applications[accessIdentifier] = .init(
                        grantedAt: now, borrowTime: answer.seconds("applicationBorrowTime") ?? 0)
                }
            } else if answer.result.contains(.deviceBorrowTimeExpired) {
                update { state in
                    state.deviceHash = nil
                    state.deviceBorrowTime = nil
                    state.deviceConfirmedAt = nil
                    state.applications = [:]
                }
            } else if answer.result.contains(.accessDenied) {
                let now = now("applicationLogin")
                update { state in
                    state.deviceConfirmedAt = now
                    state.applications[accessIdentifier] = nil
                }
            }
            return answer.result
        }
    }

    func startLogin(_ accessIdentifier: String) async -> Bool {
        var shown = false
        var combined: ServiceResult = []
        var hasAccess = false
        emit(.call(.init(name: "doLogin", arguments: [.init("accessIdentifier", accessIdentifier)])))
        let first = await login(accessIdentifier)
        combined.formUnion(first)
        hasAccess = first.contains(.success)
        if !hasAccess && first.contains(.deviceBorrowTimeExpired) && !first.contains(.networkError) {
            let prompt = LoginPrompt(accessIdentifier: accessIdentifier, groups: loginGroups, reason: first)
            if let loginProvider {
                shown = true
                if let session = await session(for: await loginProvider(prompt), &combined) {
                    let registered = await register(session)
                    combined.formUnion(registered)
                    if registered.contains(.success) {
                        let second = await login(accessIdentifier)
                        combined.formUnion(second)
                        hasAccess = second.contains(.success)
                    }
                }
            } else {
                serviceResCode = DeviceResultCode.noLogin
                serviceResMsg = "a login is needed and no login provider is set"
            }
        }
        let response = LoginResponse(
            serviceResult: combined, hasAccess: hasAccess, serviceResCode: serviceResCode,
            serviceResMsg: serviceResMsg, accessIdentifier: accessIdentifier)
        deliver(response)
        emit(
            .result(
                .service(
                    "doLogin", combined, resCode: serviceResCode, resMessage: serviceResMsg,
                    outputs: [.init("hasAccess", hasAccess ? "1" : "0"), .init("loginShown", shown ? "1" : "0")]
                        + outputs())))
        return shown
    }

    /// The MV session id of a login answer: as given, or from `POST …/login` with the credentials.
    func session(for answer: LoginAnswer, _ combined: inout ServiceResult) async -> String? {
        switch answer {
        case .cancel:
            serviceResCode = DeviceResultCode.noLogin
            serviceResMsg = "the login was cancelled"
            return nil
        case .sessionID(let session):
            return session
        case .credentials(let username, let password, let group):
            guard !excludedGroups.contains(group) else {
                serviceResCode = DeviceResultCode.excludedGroup
                serviceResMsg = "the login group \(group.rawValue) is excluded"
                return nil
            }
            let answer = await invoke("login", ["username": username, "password": password, "group": group.rawValue])
            guard answer.result.contains(.success), let session = answer.string("mvSessionId") else {
                combined.formUnion(answer.result)
                return nil
            }
            return session
        }
    }
}
