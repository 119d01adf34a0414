/// Writes `JSONValue`s as text.
///
/// The canonical form (used for cassettes): two-space indentation, members sorted by name (by their
/// UTF-8 bytes, so the order does not depend on locale; repeated names keep their order),
/// `"name": value`, empty containers as `{}` and `[]`, number literals as read, and a trailing
/// newline. Equal values give identical bytes. Every form writes strings through `quoted(_:)`:
/// only `"`, `\` and control characters (U+0000 to U+001F and U+007F) are escaped, slashes and
/// non-ASCII text are kept as they are.
public enum JSONWriter {
    /// The canonical pretty form, with a trailing newline.
    public static func canonical(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, pretty: true, sorted: true, into: &out)
        out += "\n"
        return out
    }

    /// One line with `", "` and `": "` between items, members in their order unless `sorted` (for
    /// messages and diffs).
    public static func compact(_ value: JSONValue, sorted: Bool = false) -> String {
        var out = ""
        write(value, indent: 0, pretty: false, sorted: sorted, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, pretty: Bool, sorted: Bool, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let literal): out += literal
        case .string(let text): out += quoted(text)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (position, item) in items.enumerated() {
                if position > 0 { out += pretty ? "," : ", " }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                write(item, indent: indent + 1, pretty: pretty, sorted: sorted, into: &out)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(var members):
            if members.isEmpty { out += "{}"; return }
            if sorted { members = sortedMembers(members) }
            out += "{"
            for (position, member) in members.enumerated() {
                if position > 0 { out += pretty ? "," : ", " }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                out += quoted(member.name) + ": "
                write(member.value, indent: indent + 1, pretty: pretty, sorted: sorted, into: &out)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// Members sorted by the UTF-8 bytes of their names (stable for repeated names).
    static func sortedMembers(_ members: [JSONValue.Member]) -> [JSONValue.Member] {
        members.enumerated().sorted { lhs, rhs in
            let a = Array(lhs.element.name.utf8), b = Array(rhs.element.name.utf8)
            return a == b ? lhs.offset < rhs.offset : a.lexicographicallyPrecedes(b)
        }.map(\.element)
    }

    /// A JSON string literal for `text`: `"`, `\` and U+0000 to U+001F escaped (`\n`, `\r`, `\t`,
    /// `\b`, `\f`, else `\u00XX`), U+007F as `\u007f` unless `escapingDelete` is false; everything
    /// else, `/` and non-ASCII included, written as UTF-8.
    public static func quoted(_ text: String, escapingDelete: Bool = true) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || (escapingDelete && scalar.value == 0x7F) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
