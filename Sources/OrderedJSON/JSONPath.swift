/// A place in a JSON value: the member names and array indices that lead to it from the root.
///
/// Written as `$` for the root, `.name` for a member whose name is an identifier (ASCII letters,
/// digits and `_`, not starting with a digit), `["name"]` for any other name (quoted as
/// `JSONWriter.quoted(_:)` writes strings) and `[3]` for an array index, so
/// `$.testGroups[0].tests[3].result`. Two paths are equal when their components are; the text is
/// only for people.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step down: a member of an object, by name, or an element of an array, by 0-based index.
    public enum Component: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case member(String)
        case index(Int)

        public init(stringLiteral name: String) { self = .member(name) }
        public init(integerLiteral index: Int) { self = .index(index) }
    }

    /// The steps from the root, outermost first; empty for the root itself.
    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public init(arrayLiteral components: Component...) { self.components = components }

    /// The root of the value.
    public static let root = JSONPath()

    /// This path followed by the member `name`.
    public func member(_ name: String) -> JSONPath { JSONPath(components + [.member(name)]) }

    /// This path followed by the array element at `position`.
    public func index(_ position: Int) -> JSONPath { JSONPath(components + [.index(position)]) }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .member(let name) where Self.isIdentifier(name): text += "." + name
            case .member(let name): text += "[" + JSONWriter.quoted(name) + "]"
            case .index(let position): text += "[\(position)]"
            }
        }
        return text
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
