import OrderedJSON

/// How the vector tools build and read the values of their files.
extension JSONValue {
    /// An object with these members in the order the canonical writer puts them (names sorted by
    /// their UTF-8 bytes), so that equal dictionaries give equal values.
    static func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { Member($0.key, $0.value) })
    }

    /// The value as a vector field: a string as it is, a number as its literal, a boolean as `true` or
    /// `false`; nil for null, arrays and objects.
    var fieldText: String? {
        switch self {
        case .string(let text): text
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    /// Whether the value is a number written as an integer that fits in an `Int` (the only numbers
    /// the vector files hold).
    var isIntegerNumber: Bool {
        if case .number = self { return intValue != nil }
        return false
    }

    /// Whether the value is a number that is not such an integer (a fraction, an exponent, `1e400`).
    var isNonInteger: Bool {
        if case .number = self { return intValue == nil }
        return false
    }
}
