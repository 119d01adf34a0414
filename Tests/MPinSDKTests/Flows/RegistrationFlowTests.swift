import MPinCrypto
import OrderedJSON
import Testing

@testable import MPinSDK

/// `RegistrationFlow` without HTTP or crypto: each call's preconditions, requests, answers and
/// updates, and the rollback of a token that cannot be saved.
@Suite struct RegistrationFlowTests {
    typealias Action = RegistrationFlow.Action

    static let registerURL = "\(Canned.backend)/rps/user"
    static let registerAnswer =
        "{\"active\": false, \"mpinId\": \"\(Canned.mpinID)\", \"regOTT\": \"\(Canned.regOTT)\"}"

    static func context(
        settings: ClientSettings? = FlowFixtures.settings(), deviceName: String = "Phone",
        knownKeys: Set<String> = [], flavour: MPinClient.Flavour = .milagro
    ) -> RegistrationFlow.Context {
        RegistrationFlow.Context(
            settings: settings, userID: Canned.userID, deviceName: deviceName, backendKey: Canned.backendKey,
            knownKeys: knownKeys, flavour: flavour, pinMapping: .integer)
    }

    static func start(
        activateCode: String = "", userData: String = "", accessCode: String = "",
        pushToken: String = ""
    ) -> RegistrationFlow.Call {
        .start(activateCode: activateCode, userData: userData, accessCode: accessCode, pushToken: pushToken)
    }

    static func failure(_ action: Action) -> MPinError? {
        guard case .fail(let error) = action else { return nil }
        return error
    }

    static func started(active: Bool = false) -> User.Record {
        var record = User.Record()
        record.state = active ? .activated : .startedRegistration
        record.backend = Canned.backendKey
        record.mpinIDHex = Canned.mpinID
        record.regOTT = Canned.regOTT
        return record
    }

    // MARK: - StartRegistration

    @Test func startSendsTheUserWithTheGivenFieldsOnly() {
        var bare = RegistrationFlow(Self.start(), context: Self.context(deviceName: ""), record: User.Record())
        #expect(
            bare.start()
                == .send(
                    FlowRequest(
                        .register, .put, Self.registerURL,
                        body: .fields(["userId": .string(Canned.userID), "mobile": .integer(1)]))))
        #expect(bare.state == .awaitingRegistration)
        var full = RegistrationFlow(
            Self.start(activateCode: "ac", userData: "ud", accessCode: "wid", pushToken: "pt"),
            context: Self.context(), record: User.Record())
        #expect(
            full.start()
                == .send(
                    FlowRequest(
                        .register, .put, Self.registerURL,
                        body: .fields([
                            "userId": .string(Canned.userID), "mobile": .integer(1), "deviceName": .string("Phone"),
                            "userData": .string("ud"),
                            "activateCode": .string("ac"), "wid": .string("wid"), "pushToken": .string("pt"),
                        ]))))
    }

    @Test func startPreconditions() {
        let cases: [(RegistrationFlow.Context, User.Record, String)] = [
            (Self.context(settings: nil), User.Record(), "No backend is set"),
            (
                Self.context(), FlowFixtures.registered(),
                "StartRegistration needs a user in state INVALID; testUser is REGISTERED"
            ),
            (
                Self.context(knownKeys: ["testUser@backend.test:8005"]), User.Record(),
                "The user testUser already exists on backend.test:8005"
            ),
        ]
        for (context, record, message) in cases {
            var flow = RegistrationFlow(Self.start(), context: context, record: record)
            #expect(flow.start() == .fail(MPinError.flow(message)))
            #expect(flow.state == .finished)
        }
        // The MFA platform's key holds the customer and app: the same id on the backend is no conflict yet.
        var platform = RegistrationFlow(
            Self.start(), context: Self.context(knownKeys: ["testUser:backend.test:8005::"], flavour: .mfaPlatform),
            record: User.Record())
        guard case .send = platform.start() else {
            Issue.record("expected the request")
            return
        }
    }

    /// The answer makes the user STARTED_REGISTRATION (or ACTIVATED), listed under its key and saved.
    @Test(arguments: [false, true])
    func registeredUserIsListedAndSaved(active: Bool) {
        var flow = RegistrationFlow(Self.start(accessCode: "wid"), context: Self.context(), record: User.Record())
        _ = flow.start()
        var record = Self.started(active: active)
        record.accessCode = "wid"
        let answer = "{\"active\": \(active), \"mpinId\": \"\(Canned.mpinID)\", \"regOTT\": \"\(Canned.regOTT)\"}"
        #expect(
            flow.received(FlowFixtures.answer(answer))
                == .update(UserUpdate(record, listKey: "testUser@backend.test:8005", persist: true)))
        #expect(flow.state == .storing)
        #expect(flow.updated(.success(())) == .finish)
        #expect(flow.state == .finished)
    }

    @Test func platformKeyAndDuplicate() {
        let answer =
            "{\"mpinId\": \"\(Canned.mpinID)\", \"regOTT\": \"\(Canned.regOTT)\", \"customerId\": \"c1\", \"appId\": \"a1\"}"
        var fresh = RegistrationFlow(Self.start(), context: Self.context(flavour: .mfaPlatform), record: User.Record())
        _ = fresh.start()
        guard case .update(let update) = fresh.received(FlowFixtures.answer(answer)) else {
            Issue.record("no update")
            return
        }
        #expect(update.listKey == "testUser:backend.test:8005:c1:a1")
        #expect(update.record.customerID == "c1" && update.record.appID == "a1")
        var duplicate = RegistrationFlow(
            Self.start(),
            context: Self.context(
                knownKeys: ["testUser:backend.test:8005:c1:a1"],
                flavour: .mfaPlatform), record: User.Record())
        _ = duplicate.start()
        #expect(
            duplicate.received(FlowFixtures.answer(answer))
                == .fail(MPinError.flow("The user testUser is already registered as testUser:backend.test:8005:c1:a1")))
    }

    @Test(arguments: [
        ("{\"regOTT\": \"r\"}", "The response has no 'mpinId'"),
        ("{\"mpinId\": \"ab\"}", "The response has no 'regOTT'"),
        ("{\"mpinId\": \"xy\", \"regOTT\": \"r\"}", "'mpinId' in the response is not hex"),
    ])
    func badRegistrationAnswers(body: String, message: String) {
        var flow = RegistrationFlow(Self.start(), context: Self.context(), record: User.Record())
        _ = flow.start()
        let error = Self.failure(flow.received(FlowFixtures.answer(body)))
        #expect(error?.code == .responseParseError)
        #expect(error?.message == message)
    }

    @Test func aRefusedRegistrationFailsWithItsStatus() {
        var flow = RegistrationFlow(Self.start(), context: Self.context(), record: User.Record())
        _ = flow.start()
        let refused = MPinError(.identityNotAuthorized, "refused", context: .init(httpStatus: 403))
        #expect(flow.received(.failure(refused)) == .fail(refused))
    }

    // MARK: - RestartRegistration

    @Test func restartSendsTheRegOTTAndKeepsTheNewOne() {
        var record = Self.started()
        record.accessCode = "wid"
        var flow = RegistrationFlow(.restart(userData: "ud"), context: Self.context(), record: record)
        #expect(
            flow.start()
                == .send(
                    FlowRequest(
                        .register, .put, Self.registerURL + "/" + Canned.mpinID,
                        body: .fields([
                            "userId": .string(Canned.userID), "mobile": .integer(1), "deviceName": .string("Phone"),
                            "userData": .string("ud"),
                            "wid": .string("wid"), "regOTT": .string(Canned.regOTT),
                        ]))))
        #expect(flow.state == .awaitingRestart)
        var updated = record
        updated.regOTT = "new"
        updated.mpinIDHex = "abcd"
        updated.state = .activated
        #expect(
            flow.received(FlowFixtures.answer("{\"regOTT\": \"new\", \"mpinId\": \"abcd\", \"active\": true}"))
                == .update(UserUpdate(updated, persist: true)))
    }

    @Test func restartKeepsTheIDAndStateUnlessTold() {
        var flow = RegistrationFlow(.restart(userData: ""), context: Self.context(), record: Self.started())
        _ = flow.start()
        var updated = Self.started()
        updated.regOTT = "new"
        #expect(
            flow.received(FlowFixtures.answer("{\"regOTT\": \"new\", \"mpinId\": \"\"}"))
                == .update(UserUpdate(updated, persist: true)))
    }

    @Test func restartNeedsStartedRegistration() {
        var flow = RegistrationFlow(.restart(userData: ""), context: Self.context(), record: Self.started(active: true))
        #expect(
            flow.start()
                == .fail(
                    MPinError.flow(
                        "RestartRegistration needs a user in state STARTED_REGISTRATION; testUser is ACTIVATED")))
    }

    // MARK: - ConfirmRegistration

    @Test(arguments: ["", "pmi"])
    func confirmFetchesBothShares(pushMessageIdentifier: String) {
        var flow = RegistrationFlow(
            .confirm(pushMessageIdentifier: pushMessageIdentifier), context: Self.context(), record: Self.started())
        let query = "?regOTT=\(Canned.regOTT)" + (pushMessageIdentifier.isEmpty ? "" : "&pmiToken=pmi")
        #expect(
            flow.start()
                == .send(
                    FlowRequest(.getClientSecret1, .get, "\(Canned.backend)/rps/signature/\(Canned.mpinID)" + query)))
        #expect(flow.state == .awaitingSignature)
        #expect(
            flow.received(
                FlowFixtures.answer("{\"clientSecretShare\": \"\(Canned.cs1)\", \"params\": \"\(Canned.params)\"}"))
                == .send(FlowRequest(.getClientSecret2, .get, "https://dta.test/v3/clientSecret?\(Canned.params)")))
        #expect(flow.state == .awaitingClientSecret(share1: FlowFixtures.bytes(Canned.cs1)))
        var record = Self.started()
        record.clientSecret1 = FlowFixtures.bytes(Canned.cs1)
        record.clientSecret2 = FlowFixtures.bytes(Canned.cs2)
        #expect(
            flow.received(FlowFixtures.answer("{\"clientSecret\": \"\(Canned.cs2)\"}"))
                == .update(UserUpdate(record, persist: false)))
        #expect(flow.updated(.success(())) == .finish)
    }

    @Test func badShareAnswers() {
        let cases: [(String?, String, String)] = [
            (nil, "{\"params\": \"p\"}", "The response has no 'clientSecretShare'"),
            (nil, "{\"clientSecretShare\": \"\(Canned.cs1)\"}", "The response has no 'params'"),
            (
                "{\"clientSecretShare\": \"\(Canned.cs1)\", \"params\": \"p\"}", "{\"clientSecret\": \"q\"}",
                "'clientSecret' in the response is not hex"
            ),
        ]
        for (first, second, message) in cases {
            var flow = RegistrationFlow(
                .confirm(pushMessageIdentifier: ""), context: Self.context(), record: Self.started())
            _ = flow.start()
            if let first { _ = flow.received(FlowFixtures.answer(first)) }
            #expect(Self.failure(flow.received(FlowFixtures.answer(second)))?.message == message)
        }
    }

    @Test func confirmFailuresPassThrough() {
        var flow = RegistrationFlow(
            .confirm(pushMessageIdentifier: ""), context: Self.context(), record: Self.started())
        _ = flow.start()
        let expired = MPinError(.requestExpired, "late", context: .init(httpStatus: 408))
        #expect(flow.received(.failure(expired)) == .fail(expired))
    }

    // MARK: - FinishRegistration

    /// No backend is needed; the token is computed from the shares and replaces them.
    @Test func finishComputesAndSavesTheToken() {
        var flow = RegistrationFlow(
            .finish(pin: "1234", secondFactor: "77"), context: Self.context(settings: nil),
            record: FlowFixtures.confirmed())
        #expect(
            flow.start()
                == .computeToken(
                    .init(
                        mpinID: FlowFixtures.bytes(Canned.mpinID), pin: 1234, factor: 77,
                        share1: FlowFixtures.bytes(Canned.cs1), share2: FlowFixtures.bytes(Canned.cs2))))
        #expect(flow.state == .computingToken)
        var record = FlowFixtures.confirmed()
        record.token = "0a0b"
        record.state = .registered
        record.regOTT = ""
        record.clientSecret1 = nil
        record.clientSecret2 = nil
        #expect(flow.tokenComputed([10, 11]) == .update(UserUpdate(record, persist: true)))
        #expect(flow.updated(.success(())) == .finish)
    }

    /// A token that cannot be saved is not kept: the user is put back as it was.
    @Test func anUnsavedTokenIsRolledBack() {
        var flow = RegistrationFlow(
            .finish(pin: "1234", secondFactor: nil), context: Self.context(), record: FlowFixtures.confirmed())
        _ = flow.start()
        _ = flow.tokenComputed([1])
        #expect(
            flow.updated(.failure(FlowFixtures.storageFailure))
                == .update(UserUpdate(FlowFixtures.confirmed(), persist: false)))
        #expect(flow.state == .restoring(FlowFixtures.storageFailure))
        #expect(flow.updated(.success(())) == .fail(FlowFixtures.storageFailure))
    }

    /// Other calls keep what they changed when the save fails, and fail.
    @Test func otherCallsFailOnAFailedSave() {
        var flow = RegistrationFlow(.restart(userData: ""), context: Self.context(), record: Self.started())
        _ = flow.start()
        _ = flow.received(FlowFixtures.answer("{\"regOTT\": \"new\"}"))
        #expect(flow.updated(.failure(FlowFixtures.storageFailure)) == .fail(FlowFixtures.storageFailure))
    }

    @Test func finishPreconditions() {
        var noShares = FlowFixtures.confirmed()
        noShares.clientSecret2 = nil
        var badID = FlowFixtures.confirmed()
        badID.mpinIDHex = "zz"
        let cases: [(User.Record, String, String?, StatusCode, String)] = [
            (
                FlowFixtures.registered(), "1234", nil, .flowError,
                "FinishRegistration needs a user in state ACTIVATED or STARTED_REGISTRATION; testUser is REGISTERED"
            ),
            (noShares, "1234", nil, .flowError, "User identity not verified: call confirmRegistration first"),
            (FlowFixtures.confirmed(), "", nil, .pinInputCanceled, "The PIN is empty"),
            (
                FlowFixtures.confirmed(), "1234", "x", .flowError,
                "The second factor cannot be mapped with the integer mapping"
            ),
            (badID, "1234", nil, .cryptoError, "The M-Pin ID is not hex"),
        ]
        for (record, pin, factor, code, message) in cases {
            var flow = RegistrationFlow(
                .finish(pin: pin, secondFactor: factor), context: Self.context(), record: record)
            let error = Self.failure(flow.start())
            #expect(error?.code == code)
            #expect(error?.message == message)
        }
    }

    @Test func unexpectedEventsFail() {
        var idle = RegistrationFlow(Self.start(), context: Self.context(), record: User.Record())
        #expect(Self.failure(idle.tokenComputed([1]))?.code == .flowError)
        var confirming = RegistrationFlow(
            .confirm(pushMessageIdentifier: ""), context: Self.context(), record: Self.started())
        _ = confirming.start()
        #expect(Self.failure(confirming.updated(.success(())))?.code == .flowError)
        var started = RegistrationFlow(Self.start(), context: Self.context(), record: User.Record())
        _ = started.start()
        #expect(Self.failure(started.start())?.code == .flowError)
        #expect(started.state == .finished)
    }
}
