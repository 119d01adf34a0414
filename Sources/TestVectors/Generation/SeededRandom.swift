import MPinCrypto

/// SplitMix64: a small, fast, seedable generator. Each test draws from its own stream, derived from
/// the seed and the test's position, so tests can be computed in any order on any core and the file
/// stays the same.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    public init(seed: UInt64, stream: UInt64) {
        generator = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
        _ = generator.next()
    }

    public mutating func next() -> UInt64 { generator.next() }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// The seed string as a 64-bit seed: the first 8 bytes of its SHA-256, big-endian.
    public static func seedValue(_ seed: String) -> UInt64 {
        MPin().hashID(Array(seed.utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
