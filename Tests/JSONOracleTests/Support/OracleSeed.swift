import TestSupport

extension SplitMix64 {
    /// The seed of the random documents: `JSON_ORACLE_SEED` (decimal, `0x` hexadecimal or
    /// `random`) when set, else a fixed one. Failures name it, so that a run can be replayed.
    static func jsonSeedForRun() -> UInt64 { seed(fromEnvironment: "JSON_ORACLE_SEED", default: 0x4A53_4F4E_4F72_6163) }
}

/// `0x`-prefixed hexadecimal of a seed.
func jsonSeedString(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }
