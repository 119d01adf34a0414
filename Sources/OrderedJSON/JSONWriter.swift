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
        String(decoding: canonicalBytes(value), as: UTF8.self)
    }

    /// `canonical(_:)` as UTF-8 bytes, written straight into the array (no `String` between).
    public static func canonicalBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        var writer = TextWriter(pretty: true, sorted: true)
        writer.write(value, indent: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Writes `canonicalBytes(value)` in pieces of about `chunk` bytes to `flush`, with the elements
    /// of the top-level member `member` (an array in `value`, whose own elements are ignored) made
    /// one at a time by `element(0)` to `element(count - 1)`: the bytes are those of
    /// `canonicalBytes` of `value` with that array holding those elements, and the memory is one
    /// element and one piece at a time (a cassette's events, written by `CassetteFile.write`).
    package static func writeCanonical<Failure: Error>(
        _ value: JSONValue, streaming member: String, count: Int, element: (Int) -> JSONValue,
        chunk: Int = 1 << 20, flush: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        guard case .object(let members) = value, !members.isEmpty else {
            try flush(canonicalBytes(value))
            return
        }
        var out: [UInt8] = []
        out.reserveCapacity(chunk + chunk / 4)
        var failure: Failure?
        // Hands the buffer on (once a flush has failed, the rest is dropped and the failure thrown).
        func drain(_ out: inout [UInt8]) {
            if failure == nil {
                do throws(Failure) {
                    try flush(out)
                } catch {
                    failure = error
                }
            }
            out.removeAll(keepingCapacity: true)
        }
        var writer = TextWriter(pretty: true, sorted: true, chunk: chunk)
        out.append(UInt8(ascii: "{"))
        for (position, top) in sortedMembers(members).enumerated() {
            writer.separator(position, indent: 0, into: &out)
            appendQuoted(top.name, escapingDelete: true, to: &out)
            out.append(contentsOf: ": ".utf8)
            guard top.name == member, case .array = top.value else {
                writer.write(top.value, indent: 1, into: &out, flush: drain)
                continue
            }
            guard count > 0 else {
                out.append(contentsOf: "[]".utf8)
                continue
            }
            out.append(UInt8(ascii: "["))
            for index in 0..<count {
                writer.separator(index, indent: 1, into: &out)
                writer.write(element(index), indent: 2, into: &out, flush: drain)
                if out.count >= chunk { drain(&out) }
                if let failure { throw failure }
            }
            writer.newline(1, into: &out)
            out.append(UInt8(ascii: "]"))
        }
        writer.newline(0, into: &out)
        out.append(contentsOf: "}\n".utf8)
        drain(&out)
        if let failure { throw failure }
    }

    /// One line with `", "` and `": "` between items, members in their order unless `sorted` (for
    /// messages and diffs).
    public static func compact(_ value: JSONValue, sorted: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        var writer = TextWriter(pretty: false, sorted: sorted)
        writer.write(value, indent: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private struct TextWriter {
        let pretty: Bool
        let sorted: Bool
        /// The buffer is handed to `write`'s `flush` whenever it holds this many bytes or more.
        let chunk: Int
        /// `"\n"` followed by `2 * depth` spaces, for the depths written so far.
        private var newlines: [[UInt8]] = []

        init(pretty: Bool, sorted: Bool, chunk: Int = .max) {
            self.pretty = pretty
            self.sorted = sorted
            self.chunk = chunk
        }

        mutating func newline(_ depth: Int, into out: inout [UInt8]) {
            while newlines.count <= depth {
                newlines.append([UInt8(ascii: "\n")] + [UInt8](repeating: UInt8(ascii: " "), count: 2 * newlines.count))
            }
            out.append(contentsOf: newlines[depth])
        }

        mutating func separator(_ position: Int, indent: Int, into out: inout [UInt8]) {
            if position > 0 {
                out.append(UInt8(ascii: ","))
                if !pretty { out.append(UInt8(ascii: " ")) }
            }
            if pretty { newline(indent + 1, into: &out) }
        }

        /// Writes `value` into `out`, calling `flush` (which empties it) after any string, element or
        /// member that leaves `chunk` bytes or more in it.
        mutating func write(
            _ value: JSONValue, indent: Int, into out: inout [UInt8], flush: (inout [UInt8]) -> Void = { _ in }
        ) {
            switch value {
            case .null: out.append(contentsOf: "null".utf8)
            case .bool(let flag): out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
            case .number(let literal): out.append(contentsOf: literal.utf8)
            case .string(let text):
                appendQuoted(text, escapingDelete: true, to: &out)
                if out.count >= chunk { flush(&out) }
            case .array(let items):
                if items.isEmpty {
                    out.append(contentsOf: "[]".utf8)
                    return
                }
                out.append(UInt8(ascii: "["))
                for (position, item) in items.enumerated() {
                    separator(position, indent: indent, into: &out)
                    write(item, indent: indent + 1, into: &out, flush: flush)
                }
                if pretty { newline(indent, into: &out) }
                out.append(UInt8(ascii: "]"))
            case .object(let members):
                if members.isEmpty {
                    out.append(contentsOf: "{}".utf8)
                    return
                }
                out.append(UInt8(ascii: "{"))
                for (position, member) in (sorted ? sortedMembers(members) : members).enumerated() {
                    separator(position, indent: indent, into: &out)
                    appendQuoted(member.name, escapingDelete: true, to: &out)
                    out.append(contentsOf: ": ".utf8)
                    write(member.value, indent: indent + 1, into: &out, flush: flush)
                }
                if pretty { newline(indent, into: &out) }
                out.append(UInt8(ascii: "}"))
            }
        }
    }

    /// Members sorted by the UTF-8 bytes of their names (stable for repeated names); each name's
    /// bytes are read once, and members already in order (the usual case) are returned as they are.
    static func sortedMembers(_ members: [JSONValue.Member]) -> [JSONValue.Member] {
        let names = members.map { Array($0.name.utf8) }
        var inOrder = true
        for index in names.indices.dropFirst() where names[index].lexicographicallyPrecedes(names[index - 1]) {
            inOrder = false
            break
        }
        if inOrder { return members }
        return names.indices.sorted { lhs, rhs in
            names[lhs] == names[rhs] ? lhs < rhs : names[lhs].lexicographicallyPrecedes(names[rhs])
        }.map { members[$0] }
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
