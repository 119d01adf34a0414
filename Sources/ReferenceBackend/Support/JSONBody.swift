import MPinCrypto
import Foundation

/// A request body parsed as a JSON object, with typed, validating accessors that throw
/// `APIError` (400 with a message) for anything missing or malformed.
struct JSONBody: @unchecked Sendable {
    /// Deeper nesting is refused before parsing.
    static let maximumDepth = 32

    let members: [String: Any]

    /// Parses `bytes`; an empty body counts as `{}` only when `allowEmpty`.
    init(_ bytes: [UInt8], allowEmpty: Bool = false) throws(APIError) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            guard allowEmpty else { throw APIError(.badRequest, "The request needs a JSON body") }
            members = [:]
            return
        }
        guard Self.depth(of: bytes) <= Self.maximumDepth else {
            throw APIError(.badRequest, "The JSON body is nested too deeply")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            throw APIError(.badRequest, "The body is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else { throw APIError(.badRequest, "The JSON body must be an object") }
        members = object
    }

    init(members: [String: Any]) {
        self.members = members
    }

    /// Bracket depth outside strings: a cheap guard against stack exhaustion in the parser.
    static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// A string field that must be present (empty allowed unless `nonEmpty`).
    func string(_ key: String, nonEmpty: Bool = true, maxLength: Int = 4096) throws(APIError) -> String {
        guard let value = members[key], !(value is NSNull) else { throw APIError(.badRequest, "Missing field '\(key)'") }
        guard let text = value as? String else { throw APIError(.badRequest, "Field '\(key)' must be a string") }
        if nonEmpty && text.isEmpty { throw APIError(.badRequest, "Field '\(key)' must not be empty") }
        if text.utf8.count > maxLength { throw APIError(.badRequest, "Field '\(key)' is too long") }
        return text
    }

    /// An optional string field: nil when absent or null, 400 when of another type.
    func optionalString(_ key: String, maxLength: Int = 4096) throws(APIError) -> String? {
        guard let value = members[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw APIError(.badRequest, "Field '\(key)' must be a string") }
        if text.utf8.count > maxLength { throw APIError(.badRequest, "Field '\(key)' is too long") }
        return text
    }

    /// A field read for its truth (booleans, numbers, non-empty strings), false when absent.
    func truthy(_ key: String) -> Bool {
        switch members[key] {
        case let text as String: return !text.isEmpty && text != "0" && text.lowercased() != "false"
        case let number as NSNumber: return number.boolValue
        case let flag as Bool: return flag
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

    /// A nested object field.
    func object(_ key: String) throws(APIError) -> JSONBody {
        guard let value = members[key] else { throw APIError(.badRequest, "Missing field '\(key)'") }
        guard let object = value as? [String: Any] else { throw APIError(.badRequest, "Field '\(key)' must be an object") }
        return JSONBody(members: object)
    }
}
