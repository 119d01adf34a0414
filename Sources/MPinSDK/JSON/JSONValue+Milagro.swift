import OrderedJSON

/// The SDK's rules for building and reading values: objects keep the order they are built in,
/// the first member of a repeated name wins, and numbers convert to integers as the Milagro core's
/// `(int)` does (fractions truncated).
extension JSONValue {
    /// Builds an object from key-value pairs, keeping their order.
    static func fields(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// The value of the first member with this name, for objects. The SDK's lookup: when an
    /// answer repeats a name, the first one counts (`subscript(name:)` takes the last).
    subscript(first name: String) -> JSONValue? {
        objectMembers?.first { $0.name == name }?.value
    }

    /// Replaces the value of the first member with this name, or appends the member, in an
    /// object (no effect on other values).
    mutating func set(_ name: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index].value = value
        } else {
            members.append(Member(name, value))
        }
        self = .object(members)
    }
}
