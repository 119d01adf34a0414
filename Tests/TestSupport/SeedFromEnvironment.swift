#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SplitMix64 {
    /// The seed of a run of random tests: the environment variable `name` (decimal, `0x`
    /// hexadecimal, or `random` for a fresh one) when it is set and readable, else `fallback`.
    /// Tests print or name it, so that a failing run can be replayed.
    package static func seed(fromEnvironment name: String, default fallback: UInt64) -> UInt64 {
        guard let raw = getenv(name) else { return fallback }
        let text = String(cString: raw)
        if text == "random" { return UInt64.random(in: .min ... .max) }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) ?? fallback }
        return UInt64(text) ?? fallback
    }
}
