import OrderedJSON
import Testing

@testable import MPinSDK

/// `TimePermitFlow` without HTTP: each state, each transition and what each answer means.
@Suite struct TimePermitFlowTests {
    typealias Action = TimePermitFlow.Action

    static let share1URL = "\(Canned.backend)/rps/timePermit/\(Canned.mpinID)"
    static let storageURL = "http://s3.test/bucket/\(Canned.appID)/\(Canned.date)/\(Canned.hashMPinID)"
    static let dtaURL =
        "https://dta.test/v3/timePermit?hash_mpin_id=\(Canned.hashMPinID)&app_id=\(Canned.appID)&mobile=1&signature=5151"
    static let share1Body =
        "{\"date\": \(Canned.date), \"signature\": \"5151\", \"storageId\": \"\(Canned.hashMPinID)\", \"timePermit\": \"\(Canned.tp1)\"}"

    static func flow(
        settings: ClientSettings? = FlowFixtures.settings(),
        record: User.Record = FlowFixtures.registered(permits: false),
        accessCode: String = ""
    ) -> TimePermitFlow {
        TimePermitFlow(settings: settings, userID: Canned.userID, record: record, accessCode: accessCode)
    }

    static func failure(_ action: Action) -> MPinError? {
        guard case .fail(let error) = action else { return nil }
        return error
    }

    /// The flow after share 1's request, for a user whose cache holds `cache` for `cacheDate`.
    static func awaitingShare1(cache: String = "", cacheDate: Int = 0, settings: String = Canned.settings())
        -> TimePermitFlow
    {
        var record = FlowFixtures.registered(permits: false)
        record.timePermitCache = FlowFixtures.bytes(cache)
        record.timePermitCacheDate = UInt32(cacheDate)
        var flow = flow(settings: FlowFixtures.settings(settings), record: record)
        _ = flow.start()
        _ = flow.updated(.success(()))
        return flow
    }

    static func permitRecord(cache: String, cacheDate: Int = Canned.date) -> User.Record {
        var record = FlowFixtures.registered(permits: false)
        record.timePermit1 = FlowFixtures.bytes(Canned.tp1)
        record.timePermitDate = UInt32(Canned.date)
        record.timePermitCacheDate = UInt32(cacheDate)
        record.timePermitCache = FlowFixtures.bytes(cache)
        return record
    }

    @Test func noBackendIsAFlowError() {
        var flow = Self.flow(settings: nil)
        #expect(flow.start() == .fail(MPinError.flow("No backend is set")))
        #expect(flow.state == .finished)
    }

    @Test(arguments: [UserState.invalid, .startedRegistration, .activated, .blocked])
    func onlyARegisteredUserStarts(state: UserState) {
        var record = FlowFixtures.registered()
        record.state = state
        var flow = Self.flow(record: record)
        let error = Self.failure(flow.start())
        #expect(error?.code == .flowError)
        #expect(error?.message == "StartAuthentication needs a user in state REGISTERED; testUser is \(state.rawValue)")
    }

    /// Share 1 of the last run is forgotten first; nothing is saved for it.
    @Test func startClearsShare1() {
        var flow = Self.flow(record: FlowFixtures.registered())
        var cleared = FlowFixtures.registered()
        cleared.timePermit1 = nil
        cleared.timePermitDate = 0
        #expect(flow.start() == .update(UserUpdate(cleared, persist: false)))
        #expect(flow.state == .clearing)
        #expect(flow.updated(.success(())) == .send(FlowRequest(.getTimePermit1, .get, Self.share1URL)))
        #expect(flow.state == .awaitingShare1)
    }

    /// With an access code and a `codeStatusURL` the browser session is told first; its answer, even a failure, is ignored.
    @Test(arguments: [true, false])
    func codeStatusIsNotifiedAndItsAnswerIgnored(succeeds: Bool) {
        var flow = Self.flow(settings: FlowFixtures.settings(Canned.settings(codeStatus: true)), accessCode: "4241703")
        let body = JSONValue.fields([
            "status": .string("user"), "wid": .string("4241703"), "userId": .string(Canned.userID),
        ])
        #expect(
            flow.start() == .send(FlowRequest(.notifyCodeStatus, .post, "\(Canned.backend)/rps/codeStatus", body: body))
        )
        #expect(flow.state == .notifying)
        let next = flow.received(
            succeeds ? FlowFixtures.answer("{}") : FlowFixtures.failure(.httpServerError, httpStatus: 500))
        guard case .update = next else {
            Issue.record("expected an update, got \(next)")
            return
        }
        #expect(flow.state == .clearing)
    }

    @Test func noCodeStatusWithoutAnAccessCodeOrURL() {
        var withoutCode = Self.flow(settings: FlowFixtures.settings(Canned.settings(codeStatus: true)))
        var withoutURL = Self.flow(accessCode: "4241703")
        for action in [withoutCode.start(), withoutURL.start()] {
            guard case .update = action else {
                Issue.record("expected an update, got \(action)")
                continue
            }
        }
    }

    @Test func withoutPermitsTheFlowEndsAfterClearing() {
        var flow = Self.flow(settings: FlowFixtures.settings(Canned.settings(usePermits: false)))
        _ = flow.start()
        #expect(flow.updated(.success(())) == .finish)
        #expect(flow.state == .finished)
    }

    /// docs/protocol.md §3.4 step 4a: the cached share 2 of the same day is reused; nothing changed, nothing is saved.
    @Test func cachedShare2OfTheSameDayIsReused() {
        var flow = Self.awaitingShare1(cache: Canned.tp2, cacheDate: Canned.date)
        #expect(
            flow.received(FlowFixtures.answer(Self.share1Body))
                == .update(UserUpdate(Self.permitRecord(cache: Canned.tp2), persist: false)))
        #expect(flow.state == .storing)
        #expect(flow.updated(.success(())) == .finish)
    }

    @Test func aCacheOfAnotherDayAsksTheStorage() {
        var flow = Self.awaitingShare1(cache: Canned.tp2, cacheDate: Canned.date - 1)
        #expect(
            flow.received(FlowFixtures.answer(Self.share1Body))
                == .send(FlowRequest(.getTimePermit2FromStorage, .get, Self.storageURL, expectJSON: false)))
        guard case .awaitingStoredShare2(let permit) = flow.state else {
            Issue.record("state \(flow.state)")
            return
        }
        #expect(
            permit
                == TimePermitFlow.Permit(
                    share1: FlowFixtures.bytes(Canned.tp1), date: UInt32(Canned.date),
                    storageID: Canned.hashMPinID, signature: "5151"))
    }

    /// The storage's share 2 (hex, whitespace trimmed) is kept and, being new, saved.
    @Test func share2FromTheStorageIsSaved() {
        var flow = Self.awaitingShare1()
        _ = flow.received(FlowFixtures.answer(Self.share1Body))
        #expect(
            flow.received(FlowFixtures.answer(" \t" + Canned.tp2 + "\n", json: false))
                == .update(UserUpdate(Self.permitRecord(cache: Canned.tp2), persist: true)))
    }

    /// A storage failure, a body that is not hex or not a G1 point's size falls back to the D-TA.
    @Test(arguments: ["404", "not hex", "0102"])
    func storageProblemsFallBackToTheDTA(problem: String) {
        var flow = Self.awaitingShare1()
        _ = flow.received(FlowFixtures.answer(Self.share1Body))
        let result =
            problem == "404"
            ? FlowFixtures.failure(.httpRequestError, httpStatus: 404) : FlowFixtures.answer(problem, json: false)
        #expect(flow.received(result) == .send(FlowRequest(.getTimePermit2, .get, Self.dtaURL)))
        guard case .awaitingShare2 = flow.state else {
            Issue.record("state \(flow.state)")
            return
        }
        #expect(
            flow.received(FlowFixtures.answer("{\"timePermit\": \"\(Canned.tp2)\"}"))
                == .update(UserUpdate(Self.permitRecord(cache: Canned.tp2), persist: true)))
    }

    /// Without a storage URL, or without a storage id in share 1's answer, the D-TA is asked at once.
    @Test func theDTAIsAskedWithoutAStorage() {
        var noURL = Self.awaitingShare1(settings: Canned.settings(storageURL: ""))
        #expect(
            noURL.received(FlowFixtures.answer(Self.share1Body))
                == .send(FlowRequest(.getTimePermit2, .get, Self.dtaURL)))
        var noID = Self.awaitingShare1()
        let body = "{\"date\": \(Canned.date), \"signature\": \"5151\", \"timePermit\": \"\(Canned.tp1)\"}"
        let url = "https://dta.test/v3/timePermit?hash_mpin_id=&app_id=\(Canned.appID)&mobile=1&signature=5151"
        #expect(noID.received(FlowFixtures.answer(body)) == .send(FlowRequest(.getTimePermit2, .get, url)))
    }

    /// The failure of either share's request ends the flow with its status (410 is REVOKED, docs/protocol.md §11.8).
    @Test(arguments: [true, false])
    func aFailedShareRequestFails(onShare1: Bool) {
        var flow = Self.awaitingShare1()
        if !onShare1 {
            _ = flow.received(FlowFixtures.answer(Self.share1Body))
            _ = flow.received(FlowFixtures.failure(.httpRequestError, httpStatus: 404))
        }
        let revoked = MPinError(.revoked, "revoked", context: .init(httpStatus: 410))
        #expect(flow.received(.failure(revoked)) == .fail(revoked))
        #expect(flow.state == .finished)
    }

    @Test(arguments: [
        ("{\"date\": 17085}", "The response has no 'timePermit'"),
        ("{\"date\": 17085, \"timePermit\": \"zz\"}", "'timePermit' in the response is not hex"),
        ("{\"timePermit\": \"\(Canned.tp1)\"}", "The time permit has no valid 'date'"),
        ("{\"date\": -1, \"timePermit\": \"\(Canned.tp1)\"}", "The time permit has no valid 'date'"),
    ])
    func aBadShare1IsAParseError(body: String, message: String) {
        var flow = Self.awaitingShare1()
        let error = Self.failure(flow.received(FlowFixtures.answer(body)))
        #expect(error?.code == .responseParseError)
        #expect(error?.message == message)
    }

    @Test func aBadShare2IsAParseError() {
        var flow = Self.awaitingShare1(settings: Canned.settings(storageURL: ""))
        _ = flow.received(FlowFixtures.answer(Self.share1Body))
        let error = Self.failure(flow.received(FlowFixtures.answer("{\"message\": \"OK\"}")))
        #expect(error?.code == .responseParseError)
        #expect(error?.message == "The response has no 'timePermit'")
    }

    @Test func aFailedSaveFails() {
        var flow = Self.awaitingShare1()
        _ = flow.received(FlowFixtures.answer(Self.share1Body))
        _ = flow.received(FlowFixtures.answer(Canned.tp2, json: false))
        #expect(flow.updated(.failure(FlowFixtures.storageFailure)) == .fail(FlowFixtures.storageFailure))
    }

    /// An event the state does not expect is the driver's mistake: the flow fails with FLOW_ERROR.
    @Test func unexpectedEventsFail() {
        var idle = Self.flow()
        #expect(Self.failure(idle.received(FlowFixtures.answer("{}")))?.code == .flowError)
        var started = Self.flow()
        _ = started.start()
        #expect(Self.failure(started.start())?.code == .flowError)
        var waiting = Self.awaitingShare1()
        #expect(Self.failure(waiting.updated(.success(())))?.code == .flowError)
        #expect(waiting.state == .finished)
    }
}
