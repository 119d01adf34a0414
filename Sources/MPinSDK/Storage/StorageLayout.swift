import MPinCrypto
import OrderedJSON

/// The JSON documents kept in the two storages (format version 1, see docs/sdk.md, "Storage").
///
/// Non-secure:
/// ```
/// {"version": 1, "data": {"<mpinIdHex>": {"id", "backend", "state", "deviceName"?, "customerId"?,
///   "appId"?, "timePermitCache": {"date": n, "timePermit": "<hex>"}}}}
/// ```
/// Secure: `{"version": 1, "data": {"<mpinIdHex>": {"regOTT"?, "accessCode"?, "token"?}}}`.
/// Written tab-indented with sorted keys. Documents without `version` are read as the Milagro
/// core 2.2 layout (docs/protocol.md §7.2) and written back as version 1.
enum StorageLayout {
    static let version = 1

    struct Failure: Error {
        var kind: StorageKind
        var reason: String
    }

    struct Loaded {
        var id: String
        var deviceName: String
        var record: User.Record
    }

    static func encode(_ users: [User]) -> (secure: String, nonSecure: String) {
        var secure: [JSONValue.Member] = []
        var nonSecure: [JSONValue.Member] = []
        for user in users {
            let record = user.record
            guard record.state != .invalid, !record.mpinIDHex.isEmpty else { continue }
            var entry: [JSONValue.Member] = [
                .init("id", .string(user.id)),
                .init("backend", .string(record.backend)),
                .init("state", .string(record.state.rawValue)),
                .init(
                    "timePermitCache",
                    .fields([
                        "date": .integer(record.timePermitCacheDate),
                        "timePermit": .string(Hex.encode(record.timePermitCache)),
                    ])),
            ]
            if !user.deviceName.isEmpty { entry.append(.init("deviceName", .string(user.deviceName))) }
            if !record.customerID.isEmpty { entry.append(.init("customerId", .string(record.customerID))) }
            if !record.appID.isEmpty { entry.append(.init("appId", .string(record.appID))) }
            nonSecure.append(.init(record.mpinIDHex, .object(entry)))

            var secrets: [JSONValue.Member] = []
            if !record.regOTT.isEmpty { secrets.append(.init("regOTT", .string(record.regOTT))) }
            if !record.accessCode.isEmpty { secrets.append(.init("accessCode", .string(record.accessCode))) }
            if !record.token.isEmpty { secrets.append(.init("token", .string(record.token))) }
            secure.append(.init(record.mpinIDHex, .object(secrets)))
        }
        func document(_ data: [JSONValue.Member]) -> String {
            JSONValue.fields(["version": .integer(version), "data": .object(data)]).milagroFormatted(sortedKeys: true)
                + "\n"
        }
        return (document(secure), document(nonSecure))
    }

    static func decode(secure secureText: String?, nonSecure nonSecureText: String?) throws(Failure) -> [Loaded] {
        let secure = try entries(secureText, kind: .secure)
        let nonSecure = try entries(nonSecureText, kind: .nonSecure)
        var loaded: [Loaded] = []
        for (mpinID, entry, legacyBackend) in nonSecure {
            // `encode` keeps no user without an M-Pin ID, so one read here would be lost at the next save.
            guard !mpinID.isEmpty else { throw Failure(kind: .nonSecure, reason: "a user entry has an empty M-Pin ID") }
            guard entry.objectMembers != nil else {
                throw Failure(kind: .nonSecure, reason: "the entry of \(mpinID) is not an object")
            }
            guard let stateName = entry[first: "state"]?.stringValue, let state = UserState(rawValue: stateName),
                state != .invalid
            else {
                throw Failure(kind: .nonSecure, reason: "the user \(mpinID) has no valid state")
            }
            let id: String
            if let stored = entry[first: "id"]?.stringValue {
                id = stored
            } else if let recovered = userID(fromMPinID: mpinID) {
                id = recovered
            } else {
                throw Failure(kind: .nonSecure, reason: "cannot find the user id of \(mpinID)")
            }
            let secrets = secure.first { $0.0 == mpinID }?.1
            var record = User.Record()
            record.state = state
            record.mpinIDHex = mpinID
            record.backend = legacyBackend ?? entry[first: "backend"]?.stringValue ?? ""
            record.customerID = entry[first: "customerId"]?.stringValue ?? ""
            record.appID = entry[first: "appId"]?.stringValue ?? ""
            record.regOTT = secrets?[first: "regOTT"]?.stringValue ?? ""
            record.accessCode = secrets?[first: "accessCode"]?.stringValue ?? ""
            record.token = secrets?[first: "token"]?.stringValue ?? ""
            if let cache = entry[first: "timePermitCache"] {
                record.timePermitCacheDate = UInt32(clamping: max(0, cache[first: "date"]?.truncatedIntValue ?? 0))
                record.timePermitCache = Hex.decode(cache[first: "timePermit"]?.stringValue ?? "") ?? []
            }
            switch state {
            case .startedRegistration, .activated:
                guard !record.regOTT.isEmpty else {
                    throw Failure(kind: .secure, reason: "the user \(id) is \(state.rawValue) but has no regOTT")
                }
            case .registered:
                guard record.regOTT.isEmpty else {
                    throw Failure(kind: .secure, reason: "the user \(id) is REGISTERED but still has a regOTT")
                }
            default:
                break
            }
            loaded.append(Loaded(id: id, deviceName: entry[first: "deviceName"]?.stringValue ?? "", record: record))
        }
        return loaded
    }

    /// The user entries of one document as (mpinIdHex, entry, backend of the 2.2 layout).
    private static func entries(_ text: String?, kind: StorageKind) throws(Failure) -> [(String, JSONValue, String?)] {
        guard let text, !text.allSatisfy({ $0.isWhitespace }) else { return [] }
        let json: JSONValue
        do throws(JSONSyntaxError) {
            json = try JSONParser.parseRefusingByteOrderMark(text)
        } catch {
            throw Failure(kind: kind, reason: "not valid JSON (\(error))")
        }
        guard let members = json.objectMembers else { throw Failure(kind: kind, reason: "not a JSON object") }
        if let versionValue = json[first: "version"] {
            guard versionValue.truncatedIntValue == version else {
                throw Failure(kind: kind, reason: "unsupported format version \(versionValue.milagroCompact())")
            }
            guard let data = json[first: "data"]?.objectMembers else {
                throw Failure(kind: kind, reason: "no 'data' object")
            }
            return data.map { ($0.name, $0.value, nil) }
        }
        // The Milagro core 2.2 layout.
        switch kind {
        case .secure:
            return members.map { ($0.name, $0.value, nil) }
        case .nonSecure:
            var result: [(String, JSONValue, String?)] = []
            for backend in members {
                guard let users = backend.value.objectMembers else {
                    throw Failure(kind: kind, reason: "the backend \(backend.name) is not an object")
                }
                result += users.map { ($0.name, $0.value, backend.name) }
            }
            return result
        }
    }

    /// The `userID` inside an M-Pin ID (hex of a JSON document, docs/protocol.md §3.1).
    static func userID(fromMPinID hex: String) -> String? {
        guard let bytes = Hex.decode(hex), let json = try? JSONParser.parseRefusingByteOrderMark(bytes) else {
            return nil
        }
        return json[first: "userID"]?.stringValue
    }
}
