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
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (position, item) in items.enumerated() {
                if position > 0 { out += pretty ? "," : ", " }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                write(item, indent: indent + 1, pretty: pretty, sorted: sorted, into: &out)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(var members):
            if members.isEmpty {
                out += "{}"
                return
            }
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
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, escapingDelete: escapingDelete, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The minified form, as UTF-8 bytes: no whitespace at all (`{"a":1,"b":[true,null]}`),
    /// members in their order (repeats kept), number literals as read, strings as
    /// `quoted(_:escapingDelete:)` writes them with U+007F kept. For bodies on the wire: the
    /// reference backend's answers and the DeviceSecurity connector's requests.
    package static func minified(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeMinified(value, to: &out)
        return out
    }

    private static func writeMinified(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let text): appendQuoted(text, escapingDelete: false, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                writeMinified(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                appendQuoted(member.name, escapingDelete: false, to: &out)
                out.append(UInt8(ascii: ":"))
                writeMinified(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `quoted(text, escapingDelete:)` as UTF-8; runs of bytes that need no escape are
    /// copied whole (every byte of a multi-byte sequence is 0x80 or above, so only ASCII is looked at).
    private static func appendQuoted(_ text: String, escapingDelete: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for offset in 0..<utf8.count {
                let byte = utf8[offset]
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                        || (byte == 0x7F && escapingDelete)
                else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<offset]))
                run = offset + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    let digits = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)],
                        digits[Int(byte & 0xF)],
                    ])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
