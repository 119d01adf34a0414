/// How a PIN typed by the user becomes the integer that CLIENT_1 and EXTRACT_PIN multiply by.
public enum PINMapping: String, Sendable, CaseIterable {
    /// The decimal digits as an integer ("1234" → 1234), as the AMCL vectors use. Only digits,
    /// at most 9 of them.
    case integer
    /// The C++ SDK's mapping (docs/protocol.md §6.3): the Java-style string hash h = 31·h + byte over
    /// the UTF-8 bytes with 32-bit wrap-around, then the C remainder modulo 10000 (the sign follows
    /// the dividend). The crypto then takes the low 14 bits, so "12345678" → -3340 → 13044. Tokens
    /// created by the C++ SDK need this mapping.
    case legacyStringHash

    /// The PIN integer, or nil when the string is not a valid PIN for this mapping.
    public func scalar(for pin: String) -> Int32? {
        switch self {
        case .integer:
            guard !pin.isEmpty, pin.count <= 9, pin.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int32(pin)
        case .legacyStringHash:
            guard !pin.isEmpty else { return nil }
            var h: Int32 = 0
            for byte in pin.utf8 { h = h &* 31 &+ Int32(byte) }
            return h % Int32(MPin.maxPIN)
        }
    }
}
