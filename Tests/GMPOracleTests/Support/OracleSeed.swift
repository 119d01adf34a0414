import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The seed of the oracle's random tests, so that every run can be replayed from its printed seed.
extension SplitMix64 {
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

/// `0x`-prefixed hexadecimal of a seed.
func seedString(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }
