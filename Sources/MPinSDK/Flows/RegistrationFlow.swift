import CommonFormats
import MPinCrypto
import MilagroProtocol
import OrderedJSON

/// Registration (docs/protocol.md §3.1–3.3) as a state machine without I/O, one run per call:
/// `StartRegistration`, `RestartRegistration`, `ConfirmRegistration` and `FinishRegistration`. It
/// checks the call's preconditions, says which request to send, reads every answer, says how the
/// user changes and, for `FinishRegistration`, what the token is computed from. `MPinClient`
/// drives it: it sends the requests, runs the crypto (reporting each step) and applies the updates.
struct RegistrationFlow {
    enum Call: Sendable, Hashable {
        case start(activateCode: String, userData: String, accessCode: String, pushToken: String)
        case restart(userData: String)
        case confirm(pushMessageIdentifier: String)
        case finish(pin: String, secondFactor: String?)
    }

    /// What the token is computed from: RECOMBINE_G1 of the shares, EXTRACT_PIN, then
    /// EXTRACT_FACTOR with a factor.
    struct TokenInput: Sendable, Hashable {
        var mpinID: [UInt8]
        var pin: Int32
        var factor: Int32?
        var share1: [UInt8]
        var share2: [UInt8]
    }

    /// What the flow knows about the client around the user.
    struct Context: Sendable, Hashable {
        var settings: ClientSettings?
        var userID: String
        var deviceName: String
        /// The key of the current backend (docs/protocol.md §1).
        var backendKey: String
        /// The list keys of the known users (see `MPinClient.Flavour`).
        var knownKeys: Set<String>
        var flavour: MPinClient.Flavour
        var pinMapping: PINMapping
    }

    enum Action: Sendable, Hashable {
        case send(FlowRequest)
        case computeToken(TokenInput)
        case update(UserUpdate)
        case finish
        case fail(MPinError)
    }

    enum State: Sendable, Hashable {
        case idle
        case awaitingRegistration
        case awaitingRestart
        case awaitingSignature
        case awaitingClientSecret(share1: [UInt8])
        case computingToken
        case storing
        /// The token could not be saved: the user is being put back as it was, then the call fails.
        case restoring(MPinError)
        case finished
    }

    private(set) var state = State.idle
    private let call: Call
    private let context: Context
    private var settings = ClientSettings()
    private let original: User.Record
    private var record: User.Record

    init(_ call: Call, context: Context, record: User.Record) {
        self.call = call
        self.context = context
        self.original = record
        self.record = record
    }

    private var name: String {
        switch call {
        case .start: "StartRegistration"
        case .restart: "RestartRegistration"
        case .confirm: "ConfirmRegistration"
        case .finish: "FinishRegistration"
        }
    }

    mutating func start() -> Action {
        guard state == .idle else { return misuse("start") }
        do throws(MPinError) {
            switch call {
            case .start(let activateCode, let userData, let accessCode, let pushToken):
                return try register(
                    activateCode: activateCode, userData: userData, accessCode: accessCode, pushToken: pushToken)
            case .restart(let userData):
                return try restart(userData: userData)
            case .confirm(let pushMessageIdentifier):
                return try confirm(pushMessageIdentifier: pushMessageIdentifier)
            case .finish(let pin, let secondFactor):
                return try extract(pin: pin, secondFactor: secondFactor)
            }
        } catch {
            return finish(.fail(error))
        }
    }

    /// What an answer (or the failure of a request) means.
    mutating func received(_ result: Result<Answer, MPinError>) -> Action {
        do throws(MPinError) {
            switch state {
            case .awaitingRegistration:
                return try registered(result.get())
            case .awaitingRestart:
                return try restarted(result.get())
            case .awaitingSignature:
                let signature = try result.get()
                let share1 = try signature.requiredHex("clientSecretShare", context: .getClientSecret1)
                let params = try signature.required("params", context: .getClientSecret1)
                state = .awaitingClientSecret(share1: share1)
                return .send(
                    FlowRequest(
                        .getClientSecret2, .get, settings.certivoxURL + Endpoint.clientSecretOperation + "?" + params))
            case .awaitingClientSecret(let share1):
                let share2 = try result.get().requiredHex("clientSecret", context: .getClientSecret2)
                record.clientSecret1 = share1
                record.clientSecret2 = share2
                state = .storing
                return .update(UserUpdate(record, persist: false))
            default:
                return misuse("an answer")
            }
        } catch {
            return finish(.fail(error))
        }
    }

    /// The token is computed: it replaces the shares and the user becomes REGISTERED.
    mutating func tokenComputed(_ token: [UInt8]) -> Action {
        guard state == .computingToken else { return misuse("the token") }
        record.token = Hex.encode(token)
        record.state = .registered
        record.regOTT = ""
        record.clientSecret1 = nil
        record.clientSecret2 = nil
        state = .storing
        return .update(UserUpdate(record, persist: true))
    }

    /// What came of an update the flow asked for. A token that cannot be saved is not kept.
    mutating func updated(_ result: Result<Void, MPinError>) -> Action {
        switch (state, result) {
        case (.storing, .success):
            return finish(.finish)
        case (.storing, .failure(let error)):
            guard case .finish = call else { return finish(.fail(error)) }
            state = .restoring(error)
            return .update(UserUpdate(original, persist: false))
        case (.restoring(let error), _):
            return finish(.fail(error))
        default:
            return misuse("an update")
        }
    }

    // MARK: - The calls

    private mutating func register(
        activateCode: String, userData: String, accessCode: String,
        pushToken: String
    ) throws(MPinError) -> Action {
        settings = try FlowPreconditions.backend(context.settings)
        try FlowPreconditions.state(record.state, of: context.userID, [.invalid], name)
        let backendKey = context.backendKey
        if context.flavour == .milagro,
            context.knownKeys.contains(
                context.flavour.userKey(id: context.userID, backend: backendKey, customerID: "", appID: ""))
        {
            throw MPinError.flow("The user \(context.userID) already exists on \(backendKey)")
        }
        var body: [JSONValue.Member] = [.init("userId", .string(context.userID)), .init("mobile", .integer(1))]
        if !context.deviceName.isEmpty { body.append(.init("deviceName", .string(context.deviceName))) }
        if !userData.isEmpty { body.append(.init("userData", .string(userData))) }
        if !activateCode.isEmpty { body.append(.init("activateCode", .string(activateCode))) }
        if !accessCode.isEmpty { body.append(.init("wid", .string(accessCode))) }
        if !pushToken.isEmpty { body.append(.init("pushToken", .string(pushToken))) }
        state = .awaitingRegistration
        return .send(FlowRequest(.register, .put, settings.registerURL, body: .object(body)))
    }

    private mutating func registered(_ answer: Answer) throws(MPinError) -> Action {
        guard case .start(_, _, let accessCode, _) = call else { return misuse("a registration") }
        let mpinID = try answer.required("mpinId", context: .register)
        let regOTT = try answer.required("regOTT", context: .register)
        guard Hex.decode(mpinID) != nil else {
            throw MPinError(
                .responseParseError, "'mpinId' in the response is not hex", context: .init(request: "register"))
        }
        let customerID = answer.string("customerId") ?? ""
        let appID = answer.string("appId") ?? ""
        let newKey = context.flavour.userKey(
            id: context.userID, backend: context.backendKey, customerID: customerID, appID: appID)
        if context.knownKeys.contains(newKey) {
            throw MPinError.flow("The user \(context.userID) is already registered as \(newKey)")
        }
        let active = answer.json?[first: "active"]?.boolValue ?? false
        record.backend = context.backendKey
        record.mpinIDHex = mpinID
        record.regOTT = regOTT
        record.customerID = customerID
        record.appID = appID
        record.accessCode = accessCode
        record.state = active ? .activated : .startedRegistration
        state = .storing
        return .update(UserUpdate(record, listKey: newKey, persist: true))
    }

    private mutating func restart(userData: String) throws(MPinError) -> Action {
        settings = try FlowPreconditions.backend(context.settings)
        try FlowPreconditions.state(record.state, of: context.userID, [.startedRegistration], name)
        var body: [JSONValue.Member] = [.init("userId", .string(context.userID)), .init("mobile", .integer(1))]
        if !context.deviceName.isEmpty { body.append(.init("deviceName", .string(context.deviceName))) }
        if !userData.isEmpty { body.append(.init("userData", .string(userData))) }
        if !record.accessCode.isEmpty { body.append(.init("wid", .string(record.accessCode))) }
        body.append(.init("regOTT", .string(record.regOTT)))
        state = .awaitingRestart
        return .send(FlowRequest(.register, .put, settings.registerURL + "/" + record.mpinIDHex, body: .object(body)))
    }

    private mutating func restarted(_ answer: Answer) throws(MPinError) -> Action {
        let regOTT = try answer.required("regOTT", context: .register)
        let active = answer.json?[first: "active"]?.boolValue ?? false
        record.regOTT = regOTT
        if let mpinID = answer.string("mpinId"), !mpinID.isEmpty { record.mpinIDHex = mpinID }
        if active { record.state = .activated }
        state = .storing
        return .update(UserUpdate(record, persist: true))
    }

    private mutating func confirm(pushMessageIdentifier: String) throws(MPinError) -> Action {
        settings = try FlowPreconditions.backend(context.settings)
        try FlowPreconditions.state(record.state, of: context.userID, [.startedRegistration, .activated], name)
        var query = [("regOTT", record.regOTT)]
        if !pushMessageIdentifier.isEmpty { query.append(("pmiToken", pushMessageIdentifier)) }
        let signatureURL = QueryString.appending(query, to: settings.signatureURL + "/" + record.mpinIDHex)
        state = .awaitingSignature
        return .send(FlowRequest(.getClientSecret1, .get, signatureURL))
    }

    /// No backend is needed: the shares are in memory.
    private mutating func extract(pin: String, secondFactor: String?) throws(MPinError) -> Action {
        try FlowPreconditions.state(record.state, of: context.userID, [.startedRegistration, .activated], name)
        guard let share1 = record.clientSecret1, let share2 = record.clientSecret2 else {
            throw MPinError.flow("User identity not verified: call confirmRegistration first")
        }
        let pinValue = try FlowPreconditions.pinScalar(pin, mapping: context.pinMapping)
        let factor = try FlowPreconditions.factorScalar(secondFactor, mapping: context.pinMapping)
        guard let mpinID = Hex.decode(record.mpinIDHex) else {
            throw MPinError(.cryptoError, "The M-Pin ID is not hex")
        }
        state = .computingToken
        return .computeToken(TokenInput(mpinID: mpinID, pin: pinValue, factor: factor, share1: share1, share2: share2))
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        return action
    }

    private mutating func misuse(_ event: String) -> Action {
        finish(.fail(MPinError.flow("\(name): \(event) is not expected in state \(state)")))
    }
}
