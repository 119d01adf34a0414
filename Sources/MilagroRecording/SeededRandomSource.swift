import MPinCrypto
import MPinSDK
import Synchronization

/// A deterministic random source for recordings: SplitMix64 seeded from a text seed (FNV-1a of its
/// UTF-8 bytes). Not for real keys: it exists so that recording a scenario twice draws the same bytes.
public final class SeededRandomSource: RandomSource {
    private let generator: Mutex<SplitMix64>

    public init(seed: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in seed.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        generator = Mutex(SplitMix64(seed: hash))
    }

    /// Eight bytes from each word, low byte first (the recordings depend on it).
    public func randomBytes(count: Int) -> [UInt8] {
        generator.withLock { $0.bytes(count) }
    }
}
