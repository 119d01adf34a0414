import CommonFormats
import MilagroProtocol
import OrderedJSON

/// The backend's client settings (`GET <backend>/<rpsPrefix>/clientSettings`, docs/protocol.md §2),
/// after the relative-URL rewrite and the cSum rule (`CheckDigitRule`). The keys are
/// `ClientSettingsKey`'s; values are read as the Milagro core reads them (`SettingValue`).
struct ClientSettings: Sendable, Hashable {
    private(set) var json: JSONValue

    /// Applies docs/protocol.md §2: every string value starting with `/` gets the backend URL prefixed;
    /// other strings have `wss://` → `https://` and `ws://` → `http://`. Then, when `cSum` is
    /// missing or 0, `accessNumberUseCheckSum` is forced to false (`CheckDigitRule.checksumAllowed`).
    init(response: JSONValue, backendURL: String) {
        guard case .object(var members) = response else {
            json = .object([])
            return
        }
        for index in members.indices {
            guard case .string(let text) = members[index].value else { continue }
            if text.hasPrefix("/") {
                members[index].value = .string(backendURL + text)
            } else {
                // By bytes (`UTF8Search`): a `Character` search walks grapheme boundaries, which on
                // a long value the SDK does not even use cost seconds.
                let secure = UTF8Search.replacing("wss://", with: "https://", in: text).text
                members[index].value = .string(UTF8Search.replacing("ws://", with: "http://", in: secure).text)
            }
        }
        json = .object(members)
        if !CheckDigitRule.checksumAllowed(cSum: json[first: ClientSettingsKey.cSum.rawValue]) {
            json.set(ClientSettingsKey.accessNumberUseCheckSum.rawValue, .bool(false))
        }
    }

    init() {
        json = .object([])
    }

    func value(_ key: ClientSettingsKey) -> JSONValue? { json[first: key.rawValue] }

    func string(_ key: ClientSettingsKey) -> String { value(key)?.stringValue ?? "" }

    func bool(_ key: ClientSettingsKey, default fallback: Bool) -> Bool {
        SettingValue.bool(value(key), default: fallback)
    }

    func int(_ key: ClientSettingsKey, default fallback: Int) -> Int { SettingValue.int(value(key), default: fallback) }

    /// `GetClientParam`: strings as they are, numbers as integers, booleans as `true`/`false`,
    /// anything else (or a missing key) as an empty string.
    func parameter(_ key: String) -> String {
        switch json[first: key] {
        case .string(let text)?: return text
        case .number?: return json[first: key]?.truncatedIntValue.map(String.init) ?? ""
        case .bool(let flag)?: return flag ? "true" : "false"
        default: return ""
        }
    }

    var registerURL: String { string(.registerURL) }
    var signatureURL: String { string(.signatureURL) }
    var certivoxURL: String { string(.certivoxURL) }
    var timePermitsURL: String { string(.timePermitsURL) }
    var timePermitsStorageURL: String { string(.timePermitsStorageURL) }
    var usePermits: Bool { bool(.usePermits, default: true) }
    var appID: String { string(.appID) }
    var mpinAuthServerURL: String { string(.mpinAuthServerURL) }
    var authenticateURL: String { string(.authenticateURL) }
    var mobileAuthenticateURL: String { string(.mobileAuthenticateURL) }
    var codeStatusURL: String { string(.codeStatusURL) }
    var accessNumberDigits: Int { int(.accessNumberDigits, default: 7) }
    var accessNumberUseCheckSum: Bool { bool(.accessNumberUseCheckSum, default: true) }
    /// Whether `CheckAccessNumber` checks an access number's digit (docs/protocol.md §5.2).
    var checksAccessNumberDigit: Bool {
        CheckDigitRule.checksDigit(useCheckSum: value(.accessNumberUseCheckSum), digits: value(.accessNumberDigits))
    }
}
