extension JSONValue {
    /// The Milagro core's request-body format: tab-indented, `"key" : value`, members in order,
    /// `{}` / `[]` for empty containers, e.g. `{\n\t"userId" : "x",\n\t"mobile" : 1\n}`.
    /// Non-ASCII text is written as UTF-8; `"`, `\` and control characters are escaped.
    func formatted(sortedKeys: Bool = false) -> String {
        var out = ""
        write(to: &out, depth: 0, sortedKeys: sortedKeys)
        return out
    }

    /// Single-line form without spaces, for messages and compact storage.
    func compact() -> String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let literal): return literal
        case .string(let text): return Self.quoted(text)
        case .array(let items): return "[" + items.map { $0.compact() }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.compact() }.joined(separator: ",") + "}"
        }
    }

    private func write(to out: inout String, depth: Int, sortedKeys: Bool) {
        switch self {
        case .null, .bool, .number, .string:
            out += compact()
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += String(repeating: "\t", count: depth + 1)
                item.write(to: &out, depth: depth + 1, sortedKeys: sortedKeys)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "\t", count: depth) + "]"
        case .object(let unsorted):
            if unsorted.isEmpty { out += "{}"; return }
            let members = sortedKeys ? unsorted.sorted { $0.key < $1.key } : unsorted
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += String(repeating: "\t", count: depth + 1) + Self.quoted(member.key) + " : "
                member.value.write(to: &out, depth: depth + 1, sortedKeys: sortedKeys)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "\t", count: depth) + "}"
        }
    }

    static func quoted(_ text: String) -> String {
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
                if scalar.value < 0x20 {
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
