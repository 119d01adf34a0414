/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014): a tiny, fast, fully deterministic generator. It is **not** for keys or any secret: the
/// package uses it where the same seed must give the same bytes on every run (seeded recordings,
/// generated vector files, the constant-time check's inputs, the tests). One implementation for all
/// of them; each keeps its own way of turning words into bytes, since committed files depend on it.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// state += 0x9E3779B97F4A7C15, then the mix z ^= z >> 30, z *= 0xBF58476D1CE4E5B9,
    /// z ^= z >> 27, z *= 0x94D049BB133111EB, z ^= z >> 31 (all modulo 2^64).
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes, eight from each word, low byte first.
    package mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(max(count, 0))
        while out.count < count {
            var word = next()
            for _ in 0..<min(8, count - out.count) {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return out
    }
}
