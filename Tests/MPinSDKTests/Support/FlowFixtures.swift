import MPinCrypto
import OrderedJSON

@testable import MPinSDK

/// Values the flow tests feed the state machines: client settings, answers, failures and records,
/// shaped like the canned backend's.
enum FlowFixtures {
    static func settings(_ json: String = Canned.settings()) -> ClientSettings {
        ClientSettings(response: (try? JSONParser.parse(json)) ?? .object([]), backendURL: Canned.backend)
    }

    /// A 2xx answer; its JSON as `MPinClient.request` reads it (nil when not expected or empty).
    static func answer(_ body: String, status: Int = 200, json expectJSON: Bool = true) -> Result<Answer, MPinError> {
        let response = HTTPResponse(status: status, body: Array(body.utf8))
        return .success(
            Answer(response: response, json: expectJSON && !body.isEmpty ? try? JSONParser.parse(body) : nil))
    }

    /// A failed request, as `MPinClient.request` reports a non-2xx answer.
    static func failure(_ code: StatusCode, httpStatus: Int? = nil) -> Result<Answer, MPinError> {
        .failure(MPinError(code, "refused", context: .init(request: "POST x", httpStatus: httpStatus)))
    }

    static let storageFailure = MPinError(.storageError, "disk full", context: .init(path: "/tmp/x"))

    static func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex) ?? [] }

    /// A REGISTERED user's record with its token and, when asked, both time-permit shares.
    static func registered(permits: Bool = true) -> User.Record {
        var record = User.Record()
        record.state = .registered
        record.backend = Canned.backendKey
        record.mpinIDHex = Canned.mpinID
        record.token = Canned.token1234Legacy
        if permits {
            record.timePermit1 = bytes(Canned.tp1)
            record.timePermitDate = UInt32(Canned.date)
            record.timePermitCacheDate = UInt32(Canned.date)
            record.timePermitCache = bytes(Canned.tp2)
        }
        return record
    }

    /// A user who started registration and holds both client-secret shares.
    static func confirmed() -> User.Record {
        var record = User.Record()
        record.state = .activated
        record.backend = Canned.backendKey
        record.mpinIDHex = Canned.mpinID
        record.regOTT = Canned.regOTT
        record.clientSecret1 = bytes(Canned.cs1)
        record.clientSecret2 = bytes(Canned.cs2)
        return record
    }
}
