/// A JSON value that keeps object members in order and numbers as written.
///
/// Request bodies must come out byte for byte like the Milagro core's (members in insertion
/// order, see `formatted()`), and response values such as `logoutData` are sent back later, so
/// the order and the number literals of what the server sent are kept.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as its literal text (`17085`, `1.5e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONValue
    }

    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// Builds an object from key-value pairs, keeping their order.
    static func fields(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The number as an integer (fractions truncated, as the C++ `(int)` conversion), if it is a number.
    var intValue: Int? {
        guard case .number(let literal) = self else { return nil }
        if let exact = Int(literal) { return exact }
        guard let real = Double(literal), real.isFinite, abs(real) < 9.2e18 else { return nil }
        return Int(real)
    }

    var isNull: Bool { self == .null }

    /// Appends or replaces a member of an object (no effect on other values).
    mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(Member(key: key, value: value))
        }
        self = .object(members)
    }
}
