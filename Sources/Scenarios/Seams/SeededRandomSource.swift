import MPinSDK
import Synchronization

/// A deterministic random source for recordings: SplitMix64 seeded from a text seed (FNV-1a of its
/// UTF-8 bytes). Not for real keys: it exists so that recording a scenario twice draws the same bytes.
public final class SeededRandomSource: RandomSource {
    private let state: Mutex<UInt64>

    public init(seed: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in seed.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        state = Mutex(hash)
    }

    public func randomBytes(count: Int) -> [UInt8] {
        state.withLock { state in
            var out: [UInt8] = []
            out.reserveCapacity(count)
            while out.count < count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                for shift in stride(from: 0, to: 64, by: 8) where out.count < count {
                    out.append(UInt8(truncatingIfNeeded: z >> UInt64(shift)))
                }
            }
            return out
        }
    }
}
