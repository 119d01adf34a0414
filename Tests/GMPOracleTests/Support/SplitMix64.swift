#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64 (Steele, Lea and Flood's splittable generator): a tiny, fast, seeded and fully
/// deterministic generator, so every random test run can be replayed from its printed seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            var word = next()
            for _ in 0 ..< min(8, count - out.count) {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return out
    }

    /// The default seed of the random tests.
    static let defaultSeed: UInt64 = 0x4D50_696E_4F72_6163

    /// The seed for this run: `GMP_ORACLE_SEED` (decimal or `0x` hexadecimal, or `random` for a
    /// fresh one) when set, else `defaultSeed`. Tests print it so a failure can be replayed.
    static func seedForRun() -> UInt64 {
        guard let raw = getenv("GMP_ORACLE_SEED") else { return defaultSeed }
        let text = String(cString: raw)
        if text == "random" { return UInt64.random(in: .min ... .max) }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            return UInt64(text.dropFirst(2), radix: 16) ?? defaultSeed
        }
        return UInt64(text) ?? defaultSeed
    }
}

/// Lower-case hexadecimal of bytes, without separators.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var out = ""
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return out
}

/// `0x`-prefixed hexadecimal of a seed.
func seedString(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }
