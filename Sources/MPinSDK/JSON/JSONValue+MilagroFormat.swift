import OrderedJSON

/// The bytes the SDK writes: request bodies and the stored documents.
///
/// These are a wire format and differ from `JSONWriter`'s on purpose: tabs and `"key" : value`
/// (no spaces in the compact form), sorting by Swift's `String` order, and U+007F written as it
/// is rather than escaped.
extension JSONValue {
    /// The Milagro core's request-body format: tab-indented, `"key" : value`, members in order
    /// (by name with `sortedKeys`), `{}` / `[]` for empty containers, number literals as they are,
    /// e.g. `{\n\t"userId" : "x",\n\t"mobile" : 1\n}`. Strings as `milagroQuoted(_:)`.
    func milagroFormatted(sortedKeys: Bool = false) -> String {
        var out = ""
        write(to: &out, depth: 0, sortedKeys: sortedKeys)
        return out
    }

    /// Single-line form without spaces (`{"a":[1,true]}`), members in order, for messages and
    /// compact storage.
    func milagroCompact() -> String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let literal): return literal
        case .string(let text): return Self.milagroQuoted(text)
        case .array(let items): return "[" + items.map { $0.milagroCompact() }.joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.map { Self.milagroQuoted($0.name) + ":" + $0.value.milagroCompact() }.joined(separator: ",")
                + "}"
        }
    }

    private func write(to out: inout String, depth: Int, sortedKeys: Bool) {
        switch self {
        case .null, .bool, .number, .string:
            out += milagroCompact()
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += String(repeating: "\t", count: depth + 1)
                item.write(to: &out, depth: depth + 1, sortedKeys: sortedKeys)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "\t", count: depth) + "]"
        case .object(let unsorted):
            if unsorted.isEmpty {
                out += "{}"
                return
            }
            let members = sortedKeys ? unsorted.sorted { $0.name < $1.name } : unsorted
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += String(repeating: "\t", count: depth + 1) + Self.milagroQuoted(member.name) + " : "
                member.value.write(to: &out, depth: depth + 1, sortedKeys: sortedKeys)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "\t", count: depth) + "}"
        }
    }

    /// A JSON string literal as the Milagro core writes it: `JSONWriter.quoted`'s escapes, with
    /// U+007F written as is.
    static func milagroQuoted(_ text: String) -> String {
        JSONWriter.quoted(text, escapingDelete: false)
    }
}
