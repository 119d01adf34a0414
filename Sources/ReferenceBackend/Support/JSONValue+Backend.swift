import OrderedJSON

/// How the backend builds its answers: objects from name-value pairs, in the order given, so the
/// same answer is always the same bytes (written by `JSONWriter.minified`).
extension JSONValue {
    /// An object with these members, in this order.
    static func fields(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(pairs.map { Member($0.0, $0.1) })
    }
}
