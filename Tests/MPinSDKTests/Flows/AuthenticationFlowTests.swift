import MPinCrypto
import OrderedJSON
import Testing

@testable import MPinSDK

/// `AuthenticationFlow` without HTTP or crypto: the preconditions, each pass, the login, each
/// ending and what each answer (or failure) means. The computed values are stand-ins.
@Suite struct AuthenticationFlowTests {
    typealias Action = AuthenticationFlow.Action

    static let values = AuthenticationFlow.Pass1Values(x: [1, 2], sec: [3, 4], u: [5, 6], ut: [7, 8])
    static let pass2Body = "{\"version\": \"0.3\", \"authOTT\": \"\(Canned.authOTT)\", \"pass\": 2}"

    static func flow(
        settings: ClientSettings? = FlowFixtures.settings(), record: User.Record = FlowFixtures.registered(),
        pin: String = "1234", secondFactor: String? = nil, accessNumber: String = "",
        ending: AuthenticationFlow.Ending = .resultData, flavour: MPinClient.Flavour = .milagro
    ) -> AuthenticationFlow {
        AuthenticationFlow(
            settings: settings, userID: Canned.userID, record: record, pin: pin, secondFactor: secondFactor,
            accessNumber: accessNumber, ending: ending, flavour: flavour, pinMapping: .integer)
    }

    static func failure(_ action: Action) -> MPinError? {
        guard case .fail(let error) = action else { return nil }
        return error
    }

    /// The flow up to the RPA login: both passes answered.
    static func awaitingLogin(_ flow: AuthenticationFlow, pass2: String = pass2Body) -> (AuthenticationFlow, Action) {
        var flow = flow
        _ = flow.start()
        _ = flow.pass1Computed(values)
        _ = flow.received(FlowFixtures.answer("{\"y\": \"\(Canned.y)\"}"))
        _ = flow.pass2Computed(v: [9])
        let action = flow.received(FlowFixtures.answer(pass2))
        return (flow, action)
    }

    static func loginBody(_ action: Action) -> JSONValue? {
        guard case .send(let request) = action, request.context == .authenticateRPA else { return nil }
        return request.body
    }

    // MARK: - Preconditions

    @Test func preconditionsInTheOrderTheCoreChecksThem() {
        var noPermit = FlowFixtures.registered(permits: false)
        noPermit.token = Canned.token1234Legacy
        var badID = FlowFixtures.registered()
        badID.mpinIDHex = "xyz"
        var noToken = FlowFixtures.registered()
        noToken.token = ""
        var blocked = FlowFixtures.registered()
        blocked.state = .blocked
        let cases: [(AuthenticationFlow, StatusCode, String)] = [
            (Self.flow(settings: nil), .flowError, "No backend is set"),
            (
                Self.flow(record: blocked), .flowError,
                "FinishAuthentication needs a user in state REGISTERED; testUser is BLOCKED"
            ),
            (Self.flow(record: noPermit), .flowError, "No time permit: call startAuthentication first"),
            (Self.flow(pin: ""), .pinInputCanceled, "The PIN is empty"),
            (Self.flow(pin: "12a4"), .flowError, "The PIN cannot be mapped with the integer mapping"),
            (Self.flow(secondFactor: ""), .pinInputCanceled, "The second factor is empty"),
            (Self.flow(record: badID), .cryptoError, "The M-Pin ID is not hex"),
            (Self.flow(record: noToken), .storageError, "No token is stored for testUser"),
        ]
        for (flow, code, message) in cases {
            var flow = flow
            let error = Self.failure(flow.start())
            #expect(error?.code == code)
            #expect(error?.message == message)
            #expect(flow.state == .finished)
        }
    }

    @Test func pass1ComputesWithThePermitAndTheFactor() {
        var flow = Self.flow(secondFactor: "77")
        let input = AuthenticationFlow.Pass1Input(
            mpinID: FlowFixtures.bytes(Canned.mpinID), pin: 1234, factor: 77,
            token: FlowFixtures.bytes(Canned.token1234Legacy),
            date: UInt32(Canned.date),
            permitShares: .init(first: FlowFixtures.bytes(Canned.tp1), second: FlowFixtures.bytes(Canned.tp2)))
        #expect(flow.start() == .computePass1(input))
        #expect(flow.state == .computingPass1)
    }

    /// With `usePermits: false` no permit is needed nor used, and the date is 0.
    @Test func withoutPermitsDateZeroAndNoShares() {
        var flow = Self.flow(
            settings: FlowFixtures.settings(Canned.settings(usePermits: false)),
            record: FlowFixtures.registered(permits: false))
        guard case .computePass1(let input) = flow.start() else {
            Issue.record("no pass 1")
            return
        }
        #expect(input.date == 0)
        #expect(input.permitShares == nil)
        #expect(input.factor == nil)
    }

    // MARK: - The passes

    @Test func pass1SendsUAndUT() {
        var flow = Self.flow()
        _ = flow.start()
        let body = JSONValue.fields([
            "pass": .integer(1), "mpin_id": .string(Canned.mpinID), "UT": .string("0708"), "U": .string("0506"),
        ])
        #expect(
            flow.pass1Computed(Self.values)
                == .send(FlowRequest(.authenticatePass1, .post, "\(Canned.backend)/rps/pass1", body: body)))
        #expect(flow.state == .awaitingPass1(x: [1, 2], sec: [3, 4]))
        #expect(
            flow.received(FlowFixtures.answer("{\"y\": \"\(Canned.y)\"}"))
                == .computePass2(x: [1, 2], y: FlowFixtures.bytes(Canned.y), sec: [3, 4]))
        #expect(flow.state == .computingPass2)
    }

    @Test(arguments: [
        (AuthenticationFlow.Ending.resultData, "", false, "0"), (.otp, "", true, "0"),
        (.accessNumber, "4241703", false, "4241703"), (.authorizationCode, "code7", false, "code7"),
    ])
    func pass2SendsVWithTheOTPFlagAndTheWID(
        ending: AuthenticationFlow.Ending, accessNumber: String, otp: Bool, wid: String
    ) {
        var flow = Self.flow(accessNumber: accessNumber, ending: ending)
        _ = flow.start()
        _ = flow.pass1Computed(Self.values)
        _ = flow.received(FlowFixtures.answer("{\"y\": \"\(Canned.y)\"}"))
        let body = JSONValue.fields([
            "pass": .integer(2), "OTP": .bool(otp), "WID": .string(wid), "V": .string("0a0b"),
            "mpin_id": .string(Canned.mpinID),
        ])
        #expect(
            flow.pass2Computed(v: [10, 11])
                == .send(FlowRequest(.authenticatePass2, .post, "\(Canned.backend)/rps/pass2", body: body)))
        #expect(flow.state == .awaitingPass2)
    }

    @Test func badPassAnswersAreParseErrors() {
        var noY = Self.flow()
        _ = noY.start()
        _ = noY.pass1Computed(Self.values)
        #expect(
            Self.failure(noY.received(FlowFixtures.answer("{\"y\": \"0g\"}")))?.message
                == "'y' in the response is not hex")
        let (noOTT, action) = Self.awaitingLogin(Self.flow(), pass2: "{\"pass\": 2}")
        #expect(Self.failure(action)?.message == "The response has no 'authOTT'")
        #expect(noOTT.state == .finished)
    }

    @Test(arguments: [true, false])
    func aFailedPassFailsWithItsStatus(onPass1: Bool) {
        var flow = Self.flow()
        _ = flow.start()
        _ = flow.pass1Computed(Self.values)
        if !onPass1 {
            _ = flow.received(FlowFixtures.answer("{\"y\": \"\(Canned.y)\"}"))
            _ = flow.pass2Computed(v: [9])
        }
        let error = MPinError(.identityNotAuthorized, "no", context: .init(httpStatus: 403))
        #expect(flow.received(.failure(error)) == .fail(error))
    }

    // MARK: - The login

    /// Milagro: the whole pass-2 answer as `mpinResponse`, `authzRequest` only when asked;
    /// `authenticateURL` without an access number, `mobileAuthenticateURL` with one.
    @Test func milagroLoginSendsThePass2Answer() throws {
        let pass2 = try JSONParser.parse(Self.pass2Body)
        let (plain, plainAction) = Self.awaitingLogin(Self.flow())
        #expect(
            plainAction
                == .send(
                    FlowRequest(
                        .authenticateRPA, .post, "\(Canned.backend)/mpinAuthenticate",
                        body: .fields(["mpinResponse": pass2]), expectJSON: false)))
        #expect(plain.state == .awaitingLogin(pass2: pass2))
        let (_, authz) = Self.awaitingLogin(Self.flow(accessNumber: "code7", ending: .authorizationCode))
        #expect(
            authz
                == .send(
                    FlowRequest(
                        .authenticateRPA, .post, "\(Canned.backend)/rps/authenticate",
                        body: .fields(["mpinResponse": pass2, "authzRequest": .bool(true)]), expectJSON: false)))
    }

    @Test(arguments: [false, true])
    func mfaPlatformLoginSendsTheAuthOTT(authz: Bool) {
        let (_, action) = Self.awaitingLogin(
            Self.flow(ending: authz ? .authorizationCode : .resultData, flavour: .mfaPlatform))
        #expect(
            Self.loginBody(action)
                == .fields([
                    "mpinResponse": .fields(["authOTT": .string(Canned.authOTT)]),
                    "authzRequest": .bool(authz),
                ]))
    }

    @Test func resultDataIsTheAnswersText() {
        var (flow, _) = Self.awaitingLogin(Self.flow())
        #expect(flow.received(FlowFixtures.answer("not json", json: false)) == .finish(.resultData("not json")))
        #expect(flow.state == .finished)
    }

    /// docs/protocol.md §11.8: 410 blocks the user and deletes its token (saved), then the call fails.
    @Test func goneBlocksTheUser() {
        var (flow, _) = Self.awaitingLogin(Self.flow())
        let gone = MPinError(.incorrectPIN, "Incorrect PIN (HTTP 410)", context: .init(httpStatus: 410))
        var blockedRecord = FlowFixtures.registered()
        blockedRecord.state = .blocked
        blockedRecord.token = ""
        #expect(flow.received(.failure(gone)) == .update(UserUpdate(blockedRecord, persist: true)))
        var blocked = gone
        blocked.status.message = "User blocked: Incorrect PIN (HTTP 410)"
        #expect(flow.state == .blocking(blocked))
        var failingSave = flow
        #expect(flow.updated(.success(())) == .fail(blocked))
        #expect(failingSave.updated(.failure(FlowFixtures.storageFailure)) == .fail(FlowFixtures.storageFailure))
    }

    @Test func otherLoginFailuresPassThrough() {
        var (flow, _) = Self.awaitingLogin(Self.flow())
        let wrong = MPinError(.incorrectPIN, "Incorrect PIN (HTTP 401)", context: .init(httpStatus: 401))
        #expect(flow.received(.failure(wrong)) == .fail(wrong))
    }

    // MARK: - The endings

    @Test func otpIsReadFromPass2WithTheRPATimes() {
        var (flow, _) = Self.awaitingLogin(
            Self.flow(ending: .otp), pass2: "{\"authOTT\": \"\(Canned.authOTT)\", \"OTP\": 123456}")
        #expect(
            flow.received(
                FlowFixtures.answer(
                    "{\"ttlSeconds\": 60, \"expireTime\": 1700000060000, \"nowTime\": 1700000000000}",
                    json: false)) == .readClock(purpose: "otpReceived"))
        #expect(
            flow.clockRead(42)
                == .finish(
                    .otp(
                        OTP(
                            otp: "123456", expireTime: 1_700_000_060, ttlSeconds: 60,
                            nowTime: 1_700_000_000, receivedAt: 42))))
    }

    @Test(arguments: [
        ("{\"authOTT\": \"a\"}", "{\"ttlSeconds\": 60}", "OTP not issued", ""),
        ("{\"authOTT\": \"a\", \"OTP\": \"654321\"}", "{\"ttlSeconds\": 60}", "OTP data is malformed", "654321"),
    ])
    func aMissingOTPIsTheOTPsStatus(pass2: String, rpa: String, message: String, issued: String) {
        var (flow, _) = Self.awaitingLogin(Self.flow(ending: .otp), pass2: pass2)
        _ = flow.received(FlowFixtures.answer(rpa, json: false))
        guard case .finish(.otp(let otp)) = flow.clockRead(7) else {
            Issue.record("no OTP")
            return
        }
        #expect(otp.status == MPinStatus(.responseParseError, message))
        #expect(otp.otp == issued)
        #expect(otp.receivedAt == 7)
    }

    /// The access-number login keeps the logout data (an object as compact JSON) in memory.
    @Test func accessNumberLoginKeepsTheLogoutData() {
        var (flow, _) = Self.awaitingLogin(Self.flow(accessNumber: "4241703", ending: .accessNumber))
        var kept = FlowFixtures.registered()
        kept.logoutData = "{\"userId\":\"testUser\"}"
        kept.logoutURL = "/logout"
        #expect(
            flow.received(
                FlowFixtures.answer(
                    "{\"logoutData\": {\"userId\": \"testUser\"}, \"logoutURL\": \"/logout\"}", json: false))
                == .update(UserUpdate(kept, persist: false)))
        #expect(flow.state == .keepingLogoutData)
        #expect(flow.updated(.success(())) == .finish(.accessNumber))
    }

    @Test func accessNumberLoginWithoutLogoutDataChangesNothing() {
        var (flow, _) = Self.awaitingLogin(Self.flow(accessNumber: "4241703", ending: .accessNumber))
        #expect(flow.received(FlowFixtures.answer("", json: false)) == .finish(.accessNumber))
    }

    @Test func authorizationCodeIsTheAnswersCode() {
        var (flow, _) = Self.awaitingLogin(Self.flow(accessNumber: "c", ending: .authorizationCode))
        #expect(
            flow.received(FlowFixtures.answer("{\"code\": \"oidc-7\"}", json: false))
                == .finish(.authorizationCode("oidc-7")))
        var (missing, _) = Self.awaitingLogin(Self.flow(accessNumber: "c", ending: .authorizationCode))
        #expect(
            missing.received(FlowFixtures.answer("{}", json: false))
                == .fail(MPinError(.responseParseError, "The answer has no authorization 'code'")))
    }

    @Test func unexpectedEventsFail() {
        var idle = Self.flow()
        #expect(Self.failure(idle.pass1Computed(Self.values))?.code == .flowError)
        var computing = Self.flow()
        _ = computing.start()
        #expect(Self.failure(computing.received(FlowFixtures.answer("{}")))?.code == .flowError)
        var waiting = Self.flow()
        _ = waiting.start()
        _ = waiting.pass1Computed(Self.values)
        #expect(Self.failure(waiting.pass2Computed(v: []))?.code == .flowError)
        #expect(Self.failure(Self.flow().clockReadAfterStart())?.code == .flowError)
    }
}

extension AuthenticationFlow {
    fileprivate func clockReadAfterStart() -> Action {
        var flow = self
        _ = flow.start()
        return flow.clockRead(0)
    }
}
