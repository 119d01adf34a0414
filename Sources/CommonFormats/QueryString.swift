/// Query strings (`a=1&b=x%3Ay`), the one place in the package that builds and parses them: the
/// SDK's and the scenario runner's request URLs (through `SDKSeams.HTTPRequest`), the conformance
/// cases', the reference backend's router and the links and redirects it writes.
///
/// Building percent-encodes names and values with RFC 3986's unreserved characters (§2.3: letters,
/// digits, `-`, `.`, `_`, `~`) kept and every other UTF-8 byte written `%XX` with upper-case digits
/// (§2.1), so hex and plain ids go out as they are. Parsing is `application/x-www-form-urlencoded`
/// (WHATWG URL, §5.1): `+` is a space, `%XX` a byte, and the result must be UTF-8.
///
/// ```swift
/// QueryString.build([("userId", "a&b c"), ("n", "1")])        // "userId=a%26b%20c&n=1"
/// QueryString.appending([("regOTT", "ab12")], to: "http://h/rps/signature/x")
///                                                              // "http://h/rps/signature/x?regOTT=ab12"
/// QueryString.parse("a=1&d=a+b")                               // ["a": "1", "d": "a b"]
/// ```
package enum QueryString {
    /// Whether `byte` is one of RFC 3986's unreserved characters (§2.3).
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// `text` percent-encoded: the bytes `keeping` accepts (by default RFC 3986's unreserved set)
    /// as they are, a space as `+` when `spaceAsPlus` (form encoding, Python's `quote_plus`), every
    /// other UTF-8 byte as `%XX` in upper case.
    package static func percentEncode(
        _ text: String, keeping: (UInt8) -> Bool = isUnreserved, spaceAsPlus: Bool = false
    ) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeping(byte) {
                out.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out += Hex.encode([byte], uppercase: true).utf8
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `name=value` pairs, each side percent-encoded (`percentEncode`), joined with `&`.
    package static func build(_ pairs: [(String, String)]) -> String {
        pairs.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// `url` with the built `pairs` appended: after `?`, or after `&` when the URL already has a
    /// query (nothing more when it already ends in `?` or `&`); the URL itself when `pairs` is empty.
    package static func appending(_ pairs: [(String, String)], to url: String) -> String {
        guard !pairs.isEmpty else { return url }
        let separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        return url + separator + build(pairs)
    }

    /// The raw `name=value` items of a query (without `?`), in order, not decoded; an item without
    /// `=` has the value "", empty items are skipped. Split on the UTF-8 bytes.
    package static func items(_ query: Substring) -> [(name: Substring, value: Substring)] {
        query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { item in
            guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else { return (Substring(item), "") }
            return (Substring(item[..<equals]), Substring(item[item.index(after: equals)...]))
        }
    }

    /// The decoded parameters of `query` (without `?`); later duplicates win. Nil when a name or
    /// value is not valid percent-encoded UTF-8.
    package static func parse(_ query: String?) -> [String: String]? {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: String] = [:]
        for item in items(Substring(query)) {
            guard let name = decode(item.name), let value = decode(item.value) else { return nil }
            result[name] = value
        }
        return result
    }

    /// Percent-decodes `text`, and with `plusIsSpace` (form encoding, the query) turns `+` into a
    /// space. Nil when the result is not UTF-8 or a `%` is not followed by two hex digits.
    package static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String? {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = Hex.decode(String(decoding: [high, low], as: UTF8.self))
                else { return nil }
                bytes.append(value[0])
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
