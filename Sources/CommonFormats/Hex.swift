/// Lowercase hexadecimal, two digits a byte on output, either case accepted on input: the
/// cassette's encoding of binary values and the MVID device id. The one hex for every target that
/// does not link the crypto core.
///
/// The crypto core keeps its own public `MPinCrypto.Hex` (the same text; its encoding also runs in
/// constant time): the core imports nothing of the package, and its hex is part of its public API.
/// The targets that link the core (the SDK, the vectors, the checks, the reference backend) use
/// that one; the ones that do not (recording and replay, DeviceSecurity) use this one, so that no
/// target links the crypto core for hex alone.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// Lowercase hex, two digits a byte; upper-case digits with `uppercase` (a percent-encoded
    /// byte's, `QueryString`).
    package static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = uppercase ? upperDigits : digits
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of an even-length hex string (either case), or nil.
    package static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
