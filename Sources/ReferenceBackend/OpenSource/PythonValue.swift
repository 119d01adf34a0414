import Foundation
import MPinCrypto

/// A value as the open-source server's Python 2.7 code holds it after `json.loads`, or builds for
/// `json.dumps`: what its handlers test (`data.get`, `int(x)`, `x.decode("hex")`, truth) decides
/// their answers, so the `milagro-oss` profile keeps request bodies in this form.
indirect enum PythonValue: Sendable, Equatable {
    case none
    case bool(Bool)
    case int(Int64)
    /// An integer literal too large for 64 bits, or a float: kept as its text.
    case number(String, isInteger: Bool)
    case string(String)
    case list([PythonValue])
    /// Members in insertion order (a repeated key keeps its first place and its last value, as a
    /// dict does); the first `literal` of them come from a dict display of the source (`{...}`),
    /// whose table is presized (`PythonDict`), 0 for a dict built key by key.
    case dict([(String, PythonValue)], literal: Int)

    static func == (a: PythonValue, b: PythonValue) -> Bool {
        switch (a, b) {
        case (.none, .none): return true
        case (.string(let x), .string(let y)): return x == y
        case (.list(let x), .list(let y)): return x == y
        case (.dict(let x, _), .dict(let y, _)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default:
            if let x = a.numeric, let y = b.numeric { return x == y }
            return false
        }
    }

    /// A dict display: `{k1: v1, k2: v2}` as written in the source.
    static func display(_ members: [(String, PythonValue)]) -> PythonValue { .dict(members, literal: members.count) }

    /// A dict with integer keys (given as their decimal text), in that dict's order; `json.dumps`
    /// writes the keys as strings.
    static func intKeyed(_ members: [(String, PythonValue)]) -> PythonValue { .dict(members, literal: -1) }

    /// `bool(x)`.
    var truthy: Bool {
        switch self {
        case .none: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .number(let text, _): return (Double(text) ?? 1) != 0
        case .string(let s): return !s.isEmpty
        case .list(let l): return !l.isEmpty
        case .dict(let d, _): return !d.isEmpty
        }
    }

    /// The value of a number or bool (Python's numeric equality: `1 == 1.0 == True`).
    var numeric: Double? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Double(i)
        case .number(let text, _): return Double(text)
        default: return nil
        }
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }

    /// Python 2's type name, as its error messages give it.
    var typeName: String {
        switch self {
        case .none: return "NoneType"
        case .bool: return "bool"
        case .int: return "int"
        case .number(_, let isInteger): return isInteger ? "long" : "float"
        case .string: return "unicode"
        case .list: return "list"
        case .dict: return "dict"
        }
    }

    /// What `x[key]` raises or returns for a string key: the value, `KeyError(key)` for a dict
    /// without it, `TypeError` for anything else.
    func subscripted(_ key: String) -> Result<PythonValue, PythonError> {
        switch self {
        case .dict(let members, _):
            guard let value = members.last(where: { $0.0 == key })?.1 else { return .failure(.keyError(key)) }
            return .success(value)
        case .list: return .failure(.typeError("list indices must be integers, not unicode"))
        case .string: return .failure(.typeError("string indices must be integers"))
        default: return .failure(.typeError("'\(typeName)' object has no attribute '__getitem__'"))
        }
    }

    /// `x.get(key)` (`default` when absent); `AttributeError` when `x` is not a dict.
    func get(_ key: String, default fallback: PythonValue = .none) -> Result<PythonValue, PythonError> {
        guard case .dict(let members, _) = self else {
            return .failure(.attributeError("'\(typeName)' object has no attribute 'get'"))
        }
        return .success(members.last(where: { $0.0 == key })?.1 ?? fallback)
    }

    /// `int(x)`.
    func int() -> Result<Int64, PythonError> {
        switch self {
        case .bool(let b): return .success(b ? 1 : 0)
        case .int(let i): return .success(i)
        case .number(let text, _):
            guard let d = Double(text), d.isFinite, abs(d) < 9.2e18 else { return .failure(.overflowError) }
            return .success(Int64(d))
        case .string(let s):
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            var digits = Substring(t)
            if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int64(t.hasPrefix("+") ? String(t.dropFirst()) : t)
            else {
                return .failure(.valueError("invalid literal for int() with base 10: '\(s)'"))
            }
            return .success(value)
        case .none, .list, .dict:
            return .failure(.typeError("int() argument must be a string or a number, not '\(typeName)'"))
        }
    }

    /// `x.decode("hex")` of Python 2: the bytes of a hex string; `TypeError` for odd length or a
    /// non-hex digit, `UnicodeEncodeError` (a `ValueError`) for a non-ASCII string (`unicode` is
    /// encoded as ASCII first), `AttributeError` when `x` is not a string.
    func hexDecoded() -> Result<[UInt8], PythonError> {
        guard case .string(let s) = self else {
            return .failure(.attributeError("'\(typeName)' object has no attribute 'decode'"))
        }
        if let (offset, scalar) = s.unicodeScalars.enumerated().first(where: { !$0.element.isASCII }) {
            return .failure(
                .valueError(
                    "'ascii' codec can't encode character u'\\x\(String(scalar.value, radix: 16))' in position \(offset): ordinal not in range(128)"
                ))
        }
        return Self.hexBytes(s)
    }

    /// `str.decode("hex")` of an ASCII string: the crypto core's `Hex`, with Python's two errors.
    static func hexBytes(_ s: String) -> Result<[UInt8], PythonError> {
        guard s.utf8.count % 2 == 0 else { return .failure(.typeError("Odd-length string")) }
        guard let bytes = Hex.decode(s) else { return .failure(.typeError("Non-hexadecimal digit found")) }
        return .success(bytes)
    }

    /// The memory storage's index key part, `str(value)`, or nil when the value is false (no
    /// key is made then): so the number 1234567 and the string "1234567" find the same item.
    var storageKey: String? {
        guard truthy else { return nil }
        switch self {
        case .string(let s): return s
        case .bool: return "True"
        case .int(let i): return String(i)
        case .number(let text, _): return text
        case .list, .dict, .none: return "\u{1}" + PythonJSON.dumps(self)
        }
    }

    /// A key for the memory storage's indexes, equal where Python's `==` (and hash) are.
    var indexKey: String {
        switch self {
        case .string(let s): return "s" + s
        case .none: return "n"
        case .list, .dict: return "x" + PythonJSON.dumps(self)
        default:
            if let n = numeric { return "d" + String(n) }
            return "?"
        }
    }
}

extension PythonValue: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self = .string(value) }
}

/// The exceptions of the open-source server's handlers, by the class its `except` clauses test.
enum PythonError: Error, Sendable, Equatable {
    case valueError(String)
    case typeError(String)
    case keyError(String)
    case attributeError(String)
    case overflowError

    /// `ex.message`, as the RPS puts it in its 403 reasons.
    var message: String {
        switch self {
        case .valueError(let m), .typeError(let m), .keyError(let m), .attributeError(let m): return m
        case .overflowError: return "cannot convert float infinity to integer"
        }
    }
}
