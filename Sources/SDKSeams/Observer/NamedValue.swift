/// A named value of an event, as text (hex for binary values, decimal for numbers).
public struct NamedValue: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == NamedValue {
    /// The value of the first element with this name, nil when none has it.
    public func value(named name: String) -> String? {
        first { $0.name == name }?.value
    }
}
