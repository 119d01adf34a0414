import CommonFormats
import MPinCrypto
import MilagroProtocol
import OrderedJSON

/// `StartAuthentication` (docs/protocol.md §3.4) as a state machine without I/O: given the user's
/// record and the client settings, it says which request to send next, what each answer means and
/// how the user changes. `MPinClient` drives it: it sends the requests, applies the updates and
/// feeds back what came of them.
///
/// Steps: tell a browser session the user is coming (when an access code is given and the
/// backend has a `codeStatusURL`; the answer is ignored), forget the previous share 1, then,
/// unless the backend says `usePermits: false`, fetch share 1 from the RPA and share 2 from the
/// cache of the user (when its day matches), the time-permit storage, or the D-TA, in that order.
struct TimePermitFlow {
    enum Action: Sendable, Hashable {
        case send(FlowRequest)
        case update(UserUpdate)
        case finish
        case fail(MPinError)
    }

    /// Share 1 and what its answer says about share 2.
    struct Permit: Sendable, Hashable {
        var share1: [UInt8]
        var date: UInt32
        var storageID: String
        var signature: String
    }

    enum State: Sendable, Hashable {
        case idle
        case notifying
        case clearing
        case awaitingShare1
        case awaitingStoredShare2(Permit)
        case awaitingShare2(Permit)
        case storing
        case finished
    }

    private(set) var state = State.idle
    private let configured: ClientSettings?
    private var settings = ClientSettings()
    private let userID: String
    private var record: User.Record
    private let accessCode: String

    init(settings: ClientSettings?, userID: String, record: User.Record, accessCode: String) {
        self.configured = settings
        self.userID = userID
        self.record = record
        self.accessCode = accessCode
    }

    mutating func start() -> Action {
        guard state == .idle else { return misuse("start") }
        do throws(MPinError) {
            settings = try FlowPreconditions.backend(configured)
            try FlowPreconditions.state(record.state, of: userID, [.registered], "StartAuthentication")
        } catch {
            return finish(.fail(error))
        }
        if !settings.codeStatusURL.isEmpty && !accessCode.isEmpty {
            state = .notifying
            return .send(
                FlowRequest(
                    .notifyCodeStatus, .post, settings.codeStatusURL,
                    body: .fields([
                        "status": .string("user"), "wid": .string(accessCode), "userId": .string(userID),
                    ])))
        }
        return clear()
    }

    /// What an answer (or the failure of a request) means.
    mutating func received(_ result: Result<Answer, MPinError>) -> Action {
        switch state {
        case .notifying:
            return clear()
        case .awaitingShare1:
            do throws(MPinError) {
                return try share1(result.get())
            } catch {
                return finish(.fail(error))
            }
        case .awaitingStoredShare2(let permit):
            if case .success(let cached) = result, let text = cached.response.bodyText,
                let bytes = Hex.decode(text.trimmed(of: [" ", "\n", "\r", "\t"])), bytes.count == MPin.g1Size
            {
                return store(permit, share2: bytes)
            }
            return requestShare2(permit)
        case .awaitingShare2(let permit):
            do throws(MPinError) {
                return store(permit, share2: try result.get().requiredHex("timePermit", context: .getTimePermit2))
            } catch {
                return finish(.fail(error))
            }
        default:
            return misuse("an answer")
        }
    }

    /// What came of an update the flow asked for.
    mutating func updated(_ result: Result<Void, MPinError>) -> Action {
        if case .failure(let error) = result, state == .clearing || state == .storing { return finish(.fail(error)) }
        switch state {
        case .clearing:
            guard settings.usePermits else { return finish(.finish) }
            state = .awaitingShare1
            return .send(FlowRequest(.getTimePermit1, .get, settings.timePermitsURL + "/" + record.mpinIDHex))
        case .storing:
            return finish(.finish)
        default:
            return misuse("an update")
        }
    }

    private mutating func clear() -> Action {
        record.timePermit1 = nil
        record.timePermitDate = 0
        state = .clearing
        return .update(UserUpdate(record, persist: false))
    }

    private mutating func share1(_ permit: Answer) throws(MPinError) -> Action {
        let share1 = try permit.requiredHex("timePermit", context: .getTimePermit1)
        guard let dateValue = permit.json?[first: "date"]?.truncatedIntValue, let date = UInt32(exactly: dateValue)
        else {
            throw MPinError(
                .responseParseError, "The time permit has no valid 'date'", context: .init(request: "timePermit"))
        }
        let storageID = permit.string("storageId") ?? ""
        let signature = permit.string("signature") ?? ""
        let found = Permit(share1: share1, date: date, storageID: storageID, signature: signature)
        if record.timePermitCacheDate == date && !record.timePermitCache.isEmpty {
            return store(found, share2: record.timePermitCache)
        }
        if !settings.timePermitsStorageURL.isEmpty, !storageID.isEmpty {
            state = .awaitingStoredShare2(found)
            let url = settings.timePermitsStorageURL + "/" + settings.appID + "/" + String(date) + "/" + storageID
            return .send(FlowRequest(.getTimePermit2FromStorage, .get, url, expectJSON: false))
        }
        return requestShare2(found)
    }

    private mutating func requestShare2(_ permit: Permit) -> Action {
        let (storageID, signature) = (permit.storageID, permit.signature)
        state = .awaitingShare2(permit)
        let url = QueryString.appending(
            [("hash_mpin_id", storageID), ("app_id", settings.appID), ("mobile", "1"), ("signature", signature)],
            to: settings.certivoxURL + Endpoint.timePermitOperation)
        return .send(FlowRequest(.getTimePermit2, .get, url))
    }

    /// Both shares are known: keep them, and save when the cached share 2 or its day changed.
    private mutating func store(_ permit: Permit, share2 cache: [UInt8]) -> Action {
        let changed = record.timePermitCacheDate != permit.date || record.timePermitCache != cache
        record.timePermit1 = permit.share1
        record.timePermitDate = permit.date
        record.timePermitCacheDate = permit.date
        record.timePermitCache = cache
        state = .storing
        return .update(UserUpdate(record, persist: changed))
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        return action
    }

    private mutating func misuse(_ event: String) -> Action {
        let error = MPinError.flow("StartAuthentication: \(event) is not expected in state \(state)")
        return finish(.fail(error))
    }
}
