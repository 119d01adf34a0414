import MPinCrypto
import OrderedJSON

/// A request body parsed as a JSON object (by OrderedJSON's strict parser), with typed, validating
/// accessors that throw `APIError` (400 with a message) for anything missing or malformed.
///
/// The body is refused as a whole (400) when it is not JSON, not an object, nested deeper than
/// `maximumDepth` arrays and objects (the parser stops there, so hostile nesting cannot exhaust
/// the stack), or when an object names a member twice: such a body means two things at once (a
/// proxy or a log reader may take the other member than the backend), so it is refused rather
/// than read by a first-wins or last-wins rule. A member that is `null` counts as absent for the
/// string accessors.
struct JSONBody: Sendable {
    /// Deeper nesting is refused while parsing.
    static let maximumDepth = 32

    /// The object's members, in document order, names unique.
    let members: [JSONValue.Member]

    /// Parses `bytes`; an empty body counts as `{}` only when `allowEmpty`.
    init(_ bytes: [UInt8], allowEmpty: Bool = false) throws(APIError) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            guard allowEmpty else { throw APIError(.badRequest, "The request needs a JSON body") }
            members = []
            return
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes, duplicateMembers: .refuse, maximumDepth: Self.maximumDepth)
        } catch {
            switch error.reason {
            case .nestingTooDeep: throw APIError(.badRequest, "The JSON body is nested too deeply")
            case .repeatedName(let name): throw APIError(.badRequest, "Field '\(name)' appears more than once")
            case .grammar: throw APIError(.badRequest, "The body is not valid JSON")
            }
        }
        guard case .object(let members) = parsed else { throw APIError(.badRequest, "The JSON body must be an object") }
        self.members = members
    }

    init(members: [JSONValue.Member]) {
        self.members = members
    }

    /// The value of the member `key`; nil when it is absent or `null`.
    func value(_ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.name == key })?.value, value != .null else { return nil }
        return value
    }

    /// A string field that must be present (empty allowed unless `nonEmpty`).
    func string(_ key: String, nonEmpty: Bool = true, maxLength: Int = 4096) throws(APIError) -> String {
        guard let value = value(key) else { throw APIError(.badRequest, "Missing field '\(key)'") }
        guard case .string(let text) = value else { throw APIError(.badRequest, "Field '\(key)' must be a string") }
        if nonEmpty && text.isEmpty { throw APIError(.badRequest, "Field '\(key)' must not be empty") }
        if text.utf8.count > maxLength { throw APIError(.badRequest, "Field '\(key)' is too long") }
        return text
    }

    /// An optional string field: nil when absent or null, 400 when of another type.
    func optionalString(_ key: String, maxLength: Int = 4096) throws(APIError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw APIError(.badRequest, "Field '\(key)' must be a string") }
        if text.utf8.count > maxLength { throw APIError(.badRequest, "Field '\(key)' is too long") }
        return text
    }

    /// The client's `mobile` flag of a registration (docs/protocol.md §3.1): the number 0 or 1 (or
    /// `false`/`true`); `absent` when the member is missing or null; 400 naming the field for any
    /// other value, so that a flag the backend would misread is refused where it is read.
    func mobileFlag(_ key: String = "mobile", absent: Int) throws(APIError) -> Int {
        switch value(key) {
        case nil: return absent
        case .bool(let flag): return flag ? 1 : 0
        case .number("0"): return 0
        case .number("1"): return 1
        default: throw APIError(.badRequest, "Field '\(key)' must be 0 or 1")
        }
    }

    /// A field read for its truth, false when absent: `true`; a number other than zero (any
    /// mantissa digit other than 0, so `0.5` is true and `-0`, `0e5` are false); a string other
    /// than empty, `"0"` and `false` in any case. `false`, `null`, arrays and objects are false.
    func truthy(_ key: String) -> Bool {
        switch value(key) {
        case .string(let text): return !text.isEmpty && text != "0" && text.lowercased() != "false"
        case .number(let literal):
            return literal.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
                .contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        case .bool(let flag): return flag
        default: return false
        }
    }

    /// A hex field decoded to bytes, with an exact length when given (empty allowed when `allowEmpty`).
    func hex(_ key: String, count: Int? = nil, allowEmpty: Bool = false) throws(APIError) -> [UInt8] {
        let text = try string(key, nonEmpty: !allowEmpty, maxLength: 2048)
        if text.isEmpty { return [] }
        guard let bytes = Hex.decode(text) else { throw APIError(.badRequest, "Field '\(key)' is not hex") }
        if let count, bytes.count != count {
            throw APIError(.badRequest, "Field '\(key)' must be \(count) bytes, not \(bytes.count)")
        }
        return bytes
    }

    /// A nested object field (`null` is not an object).
    func object(_ key: String) throws(APIError) -> JSONBody {
        guard let value = members.first(where: { $0.name == key })?.value else {
            throw APIError(.badRequest, "Missing field '\(key)'")
        }
        guard case .object(let members) = value else { throw APIError(.badRequest, "Field '\(key)' must be an object") }
        return JSONBody(members: members)
    }
}
