import OrderedJSON

/// How the Milagro core reads a client setting's value (PROTOCOL §2): numbers convert to integers
/// as the C++ `(int)` does (fractions truncated), a number is a boolean that is true when not 0,
/// and a value of another type counts as missing.
public enum SettingValue {
    /// The value as an integer, if it is a number within `Int`'s range.
    public static func int(_ value: JSONValue?) -> Int? {
        value?.truncatedIntValue
    }

    /// The value as an integer, `fallback` when missing or not a number.
    public static func int(_ value: JSONValue?, default fallback: Int) -> Int {
        int(value) ?? fallback
    }

    /// The value as a boolean: a boolean as it is, a number as not 0, `fallback` otherwise.
    public static func bool(_ value: JSONValue?, default fallback: Bool) -> Bool {
        switch value {
        case .bool(let flag)?: return flag
        case .number?: return (value?.truncatedIntValue ?? 0) != 0
        default: return fallback
        }
    }
}

extension JSONValue {
    /// The number as an integer (fractions truncated, as the C++ `(int)` conversion), if it is a
    /// number within `Int`'s range.
    package var truncatedIntValue: Int? {
        guard case .number(let literal) = self else { return nil }
        if let exact = Int(literal) { return exact }
        guard let real = Double(literal), real.isFinite, abs(real) < 9.2e18 else { return nil }
        return Int(real)
    }
}
