import MPinCrypto

/// SplitMix64: a small, fast, seedable generator. Each test draws from its own stream, derived from
/// the seed and the test's position, so tests can be computed in any order on any core and the file
/// stays the same.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64, stream: UInt64) {
        state = seed ^ (stream &* 0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// The seed string as a 64-bit seed: the first 8 bytes of its SHA-256, big-endian.
    public static func seedValue(_ seed: String) -> UInt64 {
        MPin().hashID(Array(seed.utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
