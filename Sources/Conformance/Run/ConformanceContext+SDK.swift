import CommonFormats
import MPinSDK
import OrderedJSON
import SDKSeams

/// The SDK's flows, for the cases that need a registered user or a login: the cases reuse the
/// SDK's requests and crypto, and change one request where they test the backend's answer to it.
extension ConformanceContext {
    /// A new SDK client on the backend (memory storage; the run's randomness and clock).
    public func client(storage: MemoryStorage = MemoryStorage()) async throws(ConformanceError) -> (
        MPinClient, InterceptingTransport
    ) {
        let wire = InterceptingTransport(base: transport(as: .sdk))
        let client = MPinClient(transport: wire, storage: storage, random: random, clock: sdkClock)
        do {
            try await client.initialize(configuration: ["backend": backendURL, "rps_prefix": rpsPrefix])
        } catch {
            throw budgetOr(.setup("the SDK could not set the backend: \(error)"))
        }
        return (client, wire)
    }

    /// A registered user with PIN `pin`: started, activated (the backend's own answer, the
    /// operator's mailbox, or `--activation-code`), confirmed and finished through the SDK.
    public func registeredUser(pin: String = "1234") async throws(ConformanceError) -> ProbeUser {
        let storage = MemoryStorage()
        let (client, wire) = try await client(storage: storage)
        let id = newUserID()
        do {
            let user = try await client.makeNewUser(id: id)
            try await start(client, user)
            if user.state != .activated {
                try await activateByLink(userID: id)
            }
            try await client.confirmRegistration(user)
            try await client.finishRegistration(user, pin: pin)
            return ProbeUser(client: client, user: user, pin: pin, wire: wire, storage: storage)
        } catch let error as MPinError {
            throw budgetOr(
                .setup(
                    "registering \(id) through the SDK: \(ProbeOutcome(error: error, value: ""))"
                        + (error.context.responseBody.map { ", answer \"\($0.prefix(120))\"" } ?? "")))
        } catch let error as ConformanceError {
            throw error
        } catch {
            throw .setup("registering \(id): \(error)")
        }
    }

    /// A second device holding the same token: a new client on a copy of the user's storage (so
    /// that it can still try the right PIN after the first one's token was deleted by a block).
    public func copy(_ user: ProbeUser) async throws(ConformanceError) -> ProbeUser {
        let storage = MemoryStorage(secure: user.storage.text(.secure), nonSecure: user.storage.text(.nonSecure))
        let (client, wire) = try await client(storage: storage)
        guard let copied = try? await client.listUsers().first(where: { $0.id == user.id }) else {
            throw .setup("the copy of \(user.id)'s storage has no such user")
        }
        return ProbeUser(client: client, user: copied, pin: user.pin, wire: wire, storage: storage)
    }

    /// Starts a registration; a backend that wants an activation code (403) gets the one given on
    /// the command line, or one the operator's endpoints deliver.
    private func start(_ client: MPinClient, _ user: User) async throws {
        let refusal: MPinError
        let accessCode = try await registrationAccessCode() ?? ""
        do {
            try await client.startRegistration(user, activateCode: activationCode ?? "", accessCode: accessCode)
            return
        } catch {
            refusal = error
        }
        guard refusal.code == .identityNotAuthorized, activationCode == nil else { throw refusal }
        try await client.startRegistration(
            user, activateCode: try await operatorActivationCode(userID: user.id), accessCode: accessCode)
    }

    /// An activation code for a user from the operator: requested (`POST /activationCode`) and read
    /// from the mailbox (`/admin/mailbox`); `needsOperator` when the backend has no operator endpoints.
    public func operatorActivationCode(userID: String) async throws(ConformanceError) -> String {
        guard hasOperatorEndpoints else {
            throw .needsOperator("the backend wants an activation code to register (403): give --activation-code")
        }
        _ = try await send(.post, "/activationCode", json: .object([.init("userId", .string(userID))]))
        return try await mailbox(userID: userID, kind: "code")
    }

    /// Opens the activation link the operator's mailbox holds for a user.
    private func activateByLink(userID: String) async throws(ConformanceError) {
        guard hasOperatorEndpoints else {
            throw .needsOperator(
                "the registration is not active and the backend has no operator mailbox (/admin/mailbox)")
        }
        let link = try await mailbox(userID: userID, kind: "link")
        let response = try await send(.get, link, as: .browser)
        guard response.status == 200 else { throw .setup("the activation link answered \(response.summary)") }
    }

    /// The last message of a kind in the operator's mailbox for a user.
    private func mailbox(userID: String, kind: String) async throws(ConformanceError) -> String {
        let response = try await operatorCall(.get, "mailbox", query: QueryString.build([("userId", userID)]))
        let messages = response.json?["messages"]?.arrayValue ?? []
        guard let value = messages.last(where: { $0["kind"]?.stringValue == kind })?["value"]?.stringValue else {
            throw .setup("the operator's mailbox has no \(kind) for \(userID)")
        }
        return value
    }

    /// A direct login (time permit, pass 1, pass 2, the RPA's `authenticateURL`) with `pin`
    /// (the user's by default), or with an OTP requested.
    public func login(_ user: ProbeUser, pin: String? = nil) async throws(ConformanceError) -> ProbeOutcome {
        do {
            try await user.client.startAuthentication(user.user)
            let data = try await user.client.finishAuthentication(user.user, pin: pin ?? user.pin)
            return ProbeOutcome(error: nil, value: data)
        } catch {
            if paced.refused { throw .budgetExhausted("while logging in") }
            return ProbeOutcome(error: error, value: "")
        }
    }

    /// A login asking for an OTP; the value is the OTP (empty when none was issued), and the OTP
    /// status's code when the RPA's answer lacks its validity.
    public func loginOTP(_ user: ProbeUser, pin: String? = nil) async throws(ConformanceError) -> (ProbeOutcome, OTP?) {
        do {
            try await user.client.startAuthentication(user.user)
            let otp = try await user.client.finishAuthenticationOTP(user.user, pin: pin ?? user.pin)
            return (ProbeOutcome(error: nil, value: otp.otp), otp)
        } catch {
            if paced.refused { throw .budgetExhausted("while logging in") }
            return (ProbeOutcome(error: error, value: ""), nil)
        }
    }

    /// The phone's login with an access number or code (`mobileAuthenticateURL`); it returns when
    /// the backend answers (a held login: when the browser logged in, or the hold timed out).
    public func loginAccessNumber(_ user: ProbeUser, accessNumber: String, pin: String? = nil)
        async throws(ConformanceError) -> ProbeOutcome
    {
        do {
            try await user.client.startAuthentication(user.user)
            try await user.client.finishAuthenticationAN(user.user, pin: pin ?? user.pin, accessNumber: accessNumber)
            return ProbeOutcome(error: nil, value: "")
        } catch {
            if paced.refused { throw .budgetExhausted("while logging in") }
            return ProbeOutcome(error: error, value: "")
        }
    }

    /// Wrong PINs until the backend blocks the user (a 410 from the RPA), at most `limit` tries:
    /// the number of tries it took, or nil when it never blocked.
    public func blockUser(_ user: ProbeUser, limit: Int = 5) async throws(ConformanceError) -> (
        tries: Int?, outcomes: [String]
    ) {
        var outcomes: [String] = []
        for attempt in 1...limit {
            let outcome = try await login(user, pin: user.wrongPIN)
            outcomes.append(outcome.description)
            if outcome.error?.context.httpStatus == 410 { return (attempt, outcomes) }
            if outcome.isOK { throw .setup("a wrong PIN logged in (try \(attempt))") }
        }
        return (nil, outcomes)
    }

    func budgetOr(_ error: ConformanceError) -> ConformanceError {
        paced.refused ? .budgetExhausted("during set-up") : error
    }
}
