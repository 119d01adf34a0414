/// Hexadecimal text, the encoding of every binary value in M-Pin messages, vector files and reports:
/// two lower-case digits a byte on output, either case accepted on input.
public enum Hex {
    /// Lower-case hex, two digits a byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Lower-case hex, two digits a byte.
    public static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Lower-case hex, two digits a byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(Array(bytes))
    }

    /// Writes the digits straight into the string's storage. No branch and no table index depends
    /// on a byte's value (the bytes may be secret).
    private static func encode(buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: buffer.count * 2) { out in
            var index = 0
            for byte in buffer {
                out[index] = digit(byte >> 4)
                out[index + 1] = digit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    /// The lower-case digit of a nibble: "0" + n, and 0x27 more ("a" - "0" - 10) when n > 9.
    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        let n = Int(nibble)
        return UInt8(truncatingIfNeeded: n + 0x30 + (((9 - n) >> 8) & 0x27))
    }

    /// The bytes of an even number of hex digits (either case); nil for anything else.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var string = String(text)
        return string.withUTF8 { decode(buffer: $0) }
    }

    private static func decode(buffer utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
