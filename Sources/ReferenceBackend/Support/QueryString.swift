import MPinCrypto
/// `application/x-www-form-urlencoded` query strings: parsing with percent-decoding, and
/// building with the unreserved set of RFC 3986 kept.
enum QueryString {
    /// The parameters of `query` (without `?`); later duplicates win. Nil when a value is not
    /// valid percent-encoded UTF-8.
    static func parse(_ query: String?) -> [String: String]? {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: String] = [:]
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false).map(Substring.init)
            guard let name = decode(parts[0]) else { return nil }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            guard let value else { return nil }
            result[name] = value
        }
        return result
    }

    /// Percent-decodes `text`, and with `plusIsSpace` (form encoding, the query) turns `+` into a
    /// space. Nil when the result is not UTF-8 or a `%` is not followed by two hex digits.
    static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String? {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = Hex.decode(String(decoding: [high, low], as: UTF8.self)) else { return nil }
                bytes.append(value[0])
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func encode(_ text: String) -> String {
        var out = ""
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }

    static func build(_ pairs: [(String, String)]) -> String {
        pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
