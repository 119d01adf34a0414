/// SHA-1 (FIPS 180-4 §6.1), only for what the real server computes with it: Tornado's `Etag`, the
/// hash of an answer's body (`TornadoEtag`). Not for anything secret; SHA-1 is broken for collisions.
///
/// The message is padded with 0x80, zeros and its length in bits (64-bit big-endian) to a multiple
/// of 64 bytes; each block is expanded to 80 words (wₜ = ROTL¹(wₜ₋₃ ⊕ wₜ₋₈ ⊕ wₜ₋₁₄ ⊕ wₜ₋₁₆)) and
/// mixed into the five-word state in 80 rounds of Ch, Parity and Maj.
enum SHA1 {
    /// The 20-byte digest of `data`.
    static func hash(_ data: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var message = data
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bits = UInt64(data.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        var words = [UInt32](repeating: 0, count: 80)
        for start in stride(from: 0, to: message.count, by: 64) {
            for t in 0..<16 {
                let i = start + 4 * t
                words[t] =
                    UInt32(message[i]) << 24 | UInt32(message[i + 1]) << 16 | UInt32(message[i + 2]) << 8
                    | UInt32(message[i + 3])
            }
            for t in 16..<80 { words[t] = rotl(words[t - 3] ^ words[t - 8] ^ words[t - 14] ^ words[t - 16], 1) }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20:
                    f = (b & c) | (~b & d)
                    k = 0x5A82_7999
                case 20..<40:
                    f = b ^ c ^ d
                    k = 0x6ED9_EBA1
                case 40..<60:
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8F1B_BCDC
                default:
                    f = b ^ c ^ d
                    k = 0xCA62_C1D6
                }
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ words[t]
                (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}
