import CommonFormats

/// `{{name}}` placeholders: the text written in place of a secret.
///
/// A name is one or more ASCII letters, digits, `_`, `-` or `.`.
public enum Placeholder {
    public static func text(_ name: String) -> String { "{{" + name + "}}" }

    /// The name when `text` is exactly one placeholder.
    public static func whole(_ text: String) -> String? {
        let utf8 = text.utf8
        guard utf8.count > 4, utf8.starts(with: open), utf8.reversed().starts(with: close) else { return nil }
        let name = String(decoding: utf8.dropFirst(2).dropLast(2), as: UTF8.self)
        return isName(name) ? name : nil
    }

    private static let open = Array("{{".utf8), close = Array("}}".utf8)

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isNameByte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Every placeholder name in `text`, in order of appearance, without repeats: each `{{` is
    /// closed by the first `}}` after it, and when what lies between is not a name the search goes
    /// on after that `{{`. By bytes (`UTF8Search`), in time linear in the text.
    public static func names(in text: String) -> [String] {
        var out: [String] = []
        var text = text
        text.withUTF8 { utf8 in
            open.withUnsafeBufferPointer { open in
                close.withUnsafeBufferPointer { close in
                    var start = 0
                    while let opening = UTF8Search.firstOffset(of: open, in: utf8, from: start) {
                        let after = opening + 2
                        guard let closing = UTF8Search.firstOffset(of: close, in: utf8, from: after) else { break }
                        let bytes = UnsafeBufferPointer(rebasing: utf8[after..<closing])
                        if !bytes.isEmpty, bytes.allSatisfy(isNameByte) {
                            let name = String(decoding: bytes, as: UTF8.self)
                            if !out.contains(name) { out.append(name) }
                            start = closing + 2
                        } else {
                            start = after
                        }
                    }
                }
            }
        }
        return out
    }

    /// `text` with every known placeholder replaced by its value (by bytes, as `names(in:)` finds them).
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, UTF8Search.contains("{{", in: text) else { return text }
        var out = text
        for name in names(in: text) {
            if let value = values[name] {
                out = UTF8Search.replacing(Placeholder.text(name), with: value, in: out).text
            }
        }
        return out
    }
}

/// Rewrites the contents of JSON string literals in raw JSON text, leaving every other byte as is.
enum JSONStringLiterals {
    /// Calls `transform` with the raw (still escaped) content of each string literal; a non-nil result
    /// replaces that content. `isKey` tells member names from values. When nothing is replaced the
    /// result is `bytes` itself (its storage shared, not copied).
    static func rewrite(_ bytes: [UInt8], _ transform: (_ raw: String, _ isKey: Bool) -> String?) -> [UInt8] {
        var out: [UInt8] = []
        var changed = false
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\"") else {
                out.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else {
                out.append(contentsOf: bytes[index...])
                break
            }
            let raw = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            var next = end + 1
            while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
            let isKey = next < bytes.count && bytes[next] == UInt8(ascii: ":")
            out.append(UInt8(ascii: "\""))
            if let replaced = transform(raw, isKey) {
                changed = true
                out.append(contentsOf: replaced.utf8)
            } else {
                out.append(contentsOf: bytes[(index + 1)..<end])
            }
            out.append(UInt8(ascii: "\""))
            index = end + 1
        }
        return changed ? out : bytes
    }
}
