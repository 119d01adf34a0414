import MPinCrypto

/// The tests' seeded generator is the package's one SplitMix64 (MPinCrypto, `package`), so that
/// every test that draws random values draws the same ones on every run, and a failing run can be
/// replayed from its seed.
package typealias SplitMix64 = MPinCrypto.SplitMix64
