/// `{{name}}` placeholders: the text written in place of a secret.
///
/// A name is one or more ASCII letters, digits, `_`, `-` or `.`.
public enum Placeholder {
    public static func text(_ name: String) -> String { "{{" + name + "}}" }

    /// The name when `text` is exactly one placeholder.
    public static func whole(_ text: String) -> String? {
        guard text.hasPrefix("{{"), text.hasSuffix("}}"), text.count > 4 else { return nil }
        let name = String(text.dropFirst(2).dropLast(2))
        return isName(name) ? name : nil
    }

    static func isName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
                    || $0 == "-" || $0 == "."
            }
    }

    /// Every placeholder name in `text`, in order of appearance, without repeats.
    public static func names(in text: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            let after = rest[open.upperBound...]
            guard let close = after.firstRange(of: "}}") else { break }
            let name = String(after[..<close.lowerBound])
            if isName(name) {
                if !out.contains(name) { out.append(name) }
                rest = after[close.upperBound...]
            } else {
                rest = after
            }
        }
        return out
    }

    /// `text` with every known placeholder replaced by its value.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard text.contains("{{") else { return text }
        var out = text
        for name in names(in: text) {
            if let value = values[name] { out = out.replacing(Placeholder.text(name), with: value) }
        }
        return out
    }
}

/// Rewrites the contents of JSON string literals in raw JSON text, leaving every other byte as is.
enum JSONStringLiterals {
    /// Calls `transform` with the raw (still escaped) content of each string literal; a non-nil result
    /// replaces that content. `isKey` tells member names from values.
    static func rewrite(_ bytes: [UInt8], _ transform: (_ raw: String, _ isKey: Bool) -> String?) -> [UInt8] {
        var out: [UInt8] = []
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
                out.append(contentsOf: Array(replaced.utf8))
            } else {
                out.append(contentsOf: bytes[(index + 1)..<end])
            }
            out.append(UInt8(ascii: "\""))
            index = end + 1
        }
        return out
    }
}
