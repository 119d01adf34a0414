/// A JSON value that keeps what a reader needs to reproduce a document exactly: numbers keep their
/// literal text and objects keep their members in document order.
///
/// Nothing is normalised: repeated member names (which the parser refuses unless told to keep
/// them, and which a value built in code may have) stay, in order (lookups by name take the last
/// one). Equality (`==`) is structural and order-sensitive; `semanticallyEquals(_:)` is the
/// comparison of JSON meaning (member order ignored, numbers compared by value).
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as its literal text (`12`, `-0.5`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; names may repeat only where the parser was told to keep repeats
    /// (or the value was built so); the last one wins on lookup.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONValue
        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// An integer number value.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    /// A floating-point number value (non-finite values are written as 0).
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .number("0") }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// The value of the last member with this name, for objects.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.name == name }?.value
    }

    /// The value `path` leads to (members looked up as `self[name]` does, the last one winning); nil
    /// when a step names no member or no element.
    public func value(at path: JSONPath) -> JSONValue? {
        var current = self
        for component in path.components {
            switch component {
            case .member(let name):
                guard let member = current[name] else { return nil }
                current = member
            case .index(let position):
                guard let items = current.arrayValue, items.indices.contains(position) else { return nil }
                current = items[position]
            }
        }
        return current
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as an `Int` when its literal is an integer in range (no fraction, no exponent).
    public var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The number as the nearest `Double`.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var objectMembers: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short name of the value's kind, for messages ("object", "string", ...).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Compares JSON meaning: member order is ignored (names are unique after last-wins), numbers
    /// compare by value when their literals differ.
    public func semanticallyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.semanticallyEquals($1) }
        case (.object, .object):
            let a = self.uniqueMembers, b = other.uniqueMembers
            guard a.count == b.count else { return false }
            for (name, value) in a {
                guard let theirs = b[name], value.semanticallyEquals(theirs) else { return false }
            }
            return true
        default: return false
        }
    }

    /// The members by name, last one winning (empty for non-objects).
    public var uniqueMembers: [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for member in objectMembers ?? [] { out[member.name] = member.value }
        return out
    }

    /// This value with the members of every object sorted by name, as the canonical writer orders them.
    public func sortingMembers() -> JSONValue {
        switch self {
        case .array(let items): return .array(items.map { $0.sortingMembers() })
        case .object(let members):
            return .object(JSONWriter.sortedMembers(members).map { Member($0.name, $0.value.sortingMembers()) })
        default: return self
        }
    }

    /// This value with every member whose name is in `names` removed, at any depth; a name with dots
    /// (`mpinResponse.authOTT`) removes only that path from the root.
    public func removing(fields names: Set<String>) -> JSONValue {
        let paths = names.filter { $0.contains(".") }.map { $0.split(separator: ".").map(String.init) }
        var value = removingAnywhere(names.filter { !$0.contains(".") })
        for path in paths { value = value.removing(path: path[...]) }
        return value
    }

    private func removingAnywhere(_ names: Set<String>) -> JSONValue {
        if names.isEmpty { return self }
        switch self {
        case .array(let items): return .array(items.map { $0.removingAnywhere(names) })
        case .object(let members):
            return .object(
                members.filter { !names.contains($0.name) }
                    .map { Member($0.name, $0.value.removingAnywhere(names)) })
        default: return self
        }
    }

    private func removing(path: ArraySlice<String>) -> JSONValue {
        guard let head = path.first, case .object(let members) = self else { return self }
        if path.count == 1 { return .object(members.filter { $0.name != head }) }
        return .object(
            members.map { $0.name == head ? Member($0.name, $0.value.removing(path: path.dropFirst())) : $0 })
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
