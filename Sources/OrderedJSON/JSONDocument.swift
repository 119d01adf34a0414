/// A JSON text parsed together with where each of its values is written, for messages that point
/// into the text (`file.json:12: $.tests[3].result: ...`). Made by `JSONParser.parseDocument(_:)`.
///
/// `value` is exactly what `JSONParser.parse(_:)` returns for the same text. `positions` has one
/// entry for every path that leads to a value in `value` (`value.value(at:)` is non-nil for each
/// key, and each value has its key), and no other entry:
/// * a member of an object is placed where its name starts (the opening quote), which is where a
///   reader looks for it even when the value begins on a later line;
/// * an array element, and the root, are placed at the first byte of the value.
///
/// A repeated member name is an error by default; when the parser keeps repeats
/// (`duplicateMembers: .keep`), the path leads to the last member (as name lookups do), so the path
/// is placed at the last member's name and the earlier members have no entry.
public struct JSONDocument: Sendable, Hashable {
    /// The parsed value.
    public var value: JSONValue
    /// Where each value is written, by path.
    public var positions: [JSONPath: JSONPosition]

    public init(value: JSONValue, positions: [JSONPath: JSONPosition]) {
        self.value = value
        self.positions = positions
    }

    /// Where the value at `path` is written; nil when no value is there.
    public func position(of path: JSONPath) -> JSONPosition? { positions[path] }

    /// The 1-based line of the value at `path`; nil when no value is there.
    public func line(of path: JSONPath) -> Int? { positions[path]?.line }
}
