import MPinCrypto
import MilagroProtocol
import OrderedJSON

/// `FinishAuthentication` and its variants (docs/protocol.md §3.6 and §6.4) as a state machine
/// without I/O: pass 1, pass 2, the RPA login and what the answer is made into (the result data,
/// an OTP, the logout data of an access-number login, an authorization code). It checks the
/// call's preconditions, says which values to compute, which request to send and how the user
/// changes, and reads every answer. `MPinClient` drives it: it runs the crypto (reporting each
/// step and random draw), sends the requests, reads the clock and applies the updates.
struct AuthenticationFlow {
    /// What the call makes of the RPA's answer.
    enum Ending: Sendable, Hashable {
        /// `FinishAuthentication`: the answer's text.
        case resultData
        /// `FinishAuthenticationOTP`: the OTP of the pass-2 answer with the RPA's times.
        case otp
        /// `FinishAuthenticationAN` / `…AC`: the logout data of the answer are kept.
        case accessNumber
        /// `FinishAuthenticationAuthz`: the answer's authorization `code`.
        case authorizationCode
    }

    enum Outcome: Sendable, Hashable {
        case resultData(String)
        case otp(OTP)
        case accessNumber
        case authorizationCode(String)
    }

    /// The two shares of the time permit, recombined before CLIENT_1.
    struct PermitShares: Sendable, Hashable {
        var first: [UInt8]
        var second: [UInt8]
    }

    /// What pass 1 computes from: RESTORE_FACTOR (with a factor), RECOMBINE_G1 (with permit
    /// shares), a random x, then CLIENT_1.
    struct Pass1Input: Sendable, Hashable {
        var mpinID: [UInt8]
        var pin: Int32
        var factor: Int32?
        var token: [UInt8]
        var date: UInt32
        var permitShares: PermitShares?
    }

    /// What CLIENT_1 returned (`ut` empty without a permit).
    struct Pass1Values: Sendable, Hashable {
        var x: [UInt8]
        var sec: [UInt8]
        var u: [UInt8]
        var ut: [UInt8]
    }

    enum Action: Sendable, Hashable {
        case computePass1(Pass1Input)
        case send(FlowRequest)
        /// CLIENT_2 over x, the server's y and SEC.
        case computePass2(x: [UInt8], y: [UInt8], sec: [UInt8])
        case update(UserUpdate)
        case readClock(purpose: String)
        case finish(Outcome)
        case fail(MPinError)
    }

    enum State: Sendable, Hashable {
        case idle
        case computingPass1
        case awaitingPass1(x: [UInt8], sec: [UInt8])
        case computingPass2
        case awaitingPass2
        case awaitingLogin(pass2: JSONValue)
        /// A 410 from the RPA: the user is being blocked; then the call fails with this error.
        case blocking(MPinError)
        case readingClock(pass2: JSONValue, answer: JSONValue?)
        case keepingLogoutData
        case finished
    }

    private(set) var state = State.idle
    private let configured: ClientSettings?
    private var settings = ClientSettings()
    private let userID: String
    private var record: User.Record
    private let pin: String
    private let secondFactor: String?
    private let accessNumber: String
    private let ending: Ending
    private let flavour: MPinClient.Flavour
    private let pinMapping: PINMapping

    init(
        settings: ClientSettings?, userID: String, record: User.Record, pin: String, secondFactor: String?,
        accessNumber: String, ending: Ending, flavour: MPinClient.Flavour, pinMapping: PINMapping
    ) {
        self.configured = settings
        self.userID = userID
        self.record = record
        self.pin = pin
        self.secondFactor = secondFactor
        self.accessNumber = accessNumber
        self.ending = ending
        self.flavour = flavour
        self.pinMapping = pinMapping
    }

    /// The preconditions, then what pass 1 computes.
    mutating func start() -> Action {
        guard state == .idle else { return misuse("start") }
        do throws(MPinError) {
            settings = try FlowPreconditions.backend(configured)
            try FlowPreconditions.state(record.state, of: userID, [.registered], "FinishAuthentication")
            let usePermits = settings.usePermits
            if usePermits && (record.timePermit1 == nil || record.timePermitCache.isEmpty) {
                throw MPinError.flow("No time permit: call startAuthentication first")
            }
            let pinValue = try FlowPreconditions.pinScalar(pin, mapping: pinMapping)
            let factor = try FlowPreconditions.factorScalar(secondFactor, mapping: pinMapping)
            guard let mpinID = Hex.decode(record.mpinIDHex) else {
                throw MPinError(.cryptoError, "The M-Pin ID is not hex")
            }
            guard let token = Hex.decode(record.token), !token.isEmpty else {
                throw MPinError(.storageError, "No token is stored for \(userID)")
            }
            var shares: PermitShares?
            if usePermits, let share1 = record.timePermit1 {
                shares = PermitShares(first: share1, second: record.timePermitCache)
            }
            state = .computingPass1
            return .computePass1(
                Pass1Input(
                    mpinID: mpinID, pin: pinValue, factor: factor, token: token,
                    date: usePermits ? record.timePermitDate : 0, permitShares: shares))
        } catch {
            return finish(.fail(error))
        }
    }

    /// CLIENT_1 is done: send U and UT.
    mutating func pass1Computed(_ values: Pass1Values) -> Action {
        guard state == .computingPass1 else { return misuse("the pass-1 values") }
        state = .awaitingPass1(x: values.x, sec: values.sec)
        return .send(
            FlowRequest(
                .authenticatePass1, .post, settings.mpinAuthServerURL + "/" + Endpoint.pass1.lastSegment,
                body: .fields([
                    "pass": .integer(1), "mpin_id": .string(record.mpinIDHex), "UT": .string(Hex.encode(values.ut)),
                    "U": .string(Hex.encode(values.u)),
                ])))
    }

    /// CLIENT_2 is done: send V.
    mutating func pass2Computed(v: [UInt8]) -> Action {
        guard state == .computingPass2 else { return misuse("the pass-2 value") }
        state = .awaitingPass2
        return .send(
            FlowRequest(
                .authenticatePass2, .post, settings.mpinAuthServerURL + "/" + Endpoint.pass2.lastSegment,
                body: .fields([
                    "pass": .integer(2), "OTP": .bool(ending == .otp),
                    "WID": .string(accessNumber.isEmpty ? "0" : accessNumber),
                    "V": .string(Hex.encode(v)), "mpin_id": .string(record.mpinIDHex),
                ])))
    }

    /// What an answer (or the failure of a request) means.
    mutating func received(_ result: Result<Answer, MPinError>) -> Action {
        switch state {
        case .awaitingPass1(let x, let sec):
            do throws(MPinError) {
                let y = try result.get().requiredHex("y", context: .authenticatePass1)
                state = .computingPass2
                return .computePass2(x: x, y: y, sec: sec)
            } catch {
                return finish(.fail(error))
            }
        case .awaitingPass2:
            do throws(MPinError) {
                let pass2 = try result.get()
                return try login(
                    pass2: pass2.json ?? .object([]), authOTT: pass2.required("authOTT", context: .authenticatePass2))
            } catch {
                return finish(.fail(error))
            }
        case .awaitingLogin(let pass2):
            switch result {
            case .success(let answer):
                return loggedIn(pass2: pass2, answer: answer)
            case .failure(let error) where error.context.httpStatus == 410:
                record.state = .blocked
                record.token = ""
                var blocked = error
                blocked.status.message = "User blocked: \(error.message)"
                state = .blocking(blocked)
                return .update(UserUpdate(record, persist: true))
            case .failure(let error):
                return finish(.fail(error))
            }
        default:
            return misuse("an answer")
        }
    }

    /// What came of an update the flow asked for.
    mutating func updated(_ result: Result<Void, MPinError>) -> Action {
        switch (state, result) {
        case (.blocking, .failure(let error)), (.keepingLogoutData, .failure(let error)):
            return finish(.fail(error))
        case (.blocking(let blocked), .success):
            return finish(.fail(blocked))
        case (.keepingLogoutData, .success):
            return finish(.finish(.accessNumber))
        default:
            return misuse("an update")
        }
    }

    /// The clock was read for the OTP: make it from the pass-2 answer and the RPA's times.
    mutating func clockRead(_ milliseconds: Int64) -> Action {
        guard case .readingClock(let pass2, let answer) = state else { return misuse("a clock reading") }
        var otp = OTP(receivedAt: milliseconds)
        guard let issued = pass2[first: "OTP"]?.stringValue ?? pass2[first: "OTP"]?.truncatedIntValue.map(String.init),
            !issued.isEmpty
        else {
            otp.status = MPinStatus(.responseParseError, "OTP not issued")
            return finish(.finish(.otp(otp)))
        }
        otp.otp = issued
        otp.ttlSeconds = answer?[first: "ttlSeconds"]?.truncatedIntValue ?? 0
        otp.expireTime = (answer?[first: "expireTime"]?.truncatedIntValue ?? 0) / 1000
        otp.nowTime = (answer?[first: "nowTime"]?.truncatedIntValue ?? 0) / 1000
        if otp.ttlSeconds == 0 || otp.expireTime == 0 || otp.nowTime == 0 {
            otp.status = MPinStatus(.responseParseError, "OTP data is malformed")
        }
        return finish(.finish(.otp(otp)))
    }

    /// The RPA login: the Milagro core sends the whole pass-2 answer, the MFA platform its authOTT.
    private mutating func login(pass2: JSONValue, authOTT: String) -> Action {
        let url = accessNumber.isEmpty ? settings.authenticateURL : settings.mobileAuthenticateURL
        let authz = ending == .authorizationCode
        var body: JSONValue
        if flavour == .mfaPlatform {
            body = .fields(["mpinResponse": .fields(["authOTT": .string(authOTT)]), "authzRequest": .bool(authz)])
        } else {
            body = .fields(["mpinResponse": pass2])
            if authz { body.set("authzRequest", .bool(true)) }
        }
        state = .awaitingLogin(pass2: pass2)
        return .send(FlowRequest(.authenticateRPA, .post, url, body: body, expectJSON: false))
    }

    private mutating func loggedIn(pass2: JSONValue, answer: Answer) -> Action {
        let json = try? JSONParser.parseRefusingByteOrderMark(answer.response.body)
        switch ending {
        case .resultData:
            return finish(.finish(.resultData(answer.response.bodyText ?? "")))
        case .otp:
            state = .readingClock(pass2: pass2, answer: json)
            return .readClock(purpose: "otpReceived")
        case .accessNumber:
            guard let logoutData = json?[first: "logoutData"] else { return finish(.finish(.accessNumber)) }
            record.logoutData = logoutData.stringValue ?? logoutData.milagroCompact()
            record.logoutURL = json?[first: "logoutURL"]?.stringValue ?? ""
            state = .keepingLogoutData
            return .update(UserUpdate(record, persist: false))
        case .authorizationCode:
            guard let code = json?[first: "code"]?.stringValue else {
                return finish(.fail(MPinError(.responseParseError, "The answer has no authorization 'code'")))
            }
            return finish(.finish(.authorizationCode(code)))
        }
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        return action
    }

    private mutating func misuse(_ event: String) -> Action {
        finish(.fail(MPinError.flow("FinishAuthentication: \(event) is not expected in state \(state)")))
    }
}
