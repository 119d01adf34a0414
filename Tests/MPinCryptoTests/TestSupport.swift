@testable import MPinCrypto

func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

func unhex(_ s: String) -> [UInt8] {
    let u = Array(s.utf8)
    var out: [UInt8] = []
    var i = 0
    while i + 1 < u.count {
        out.append(UInt8(String(decoding: u[i...i + 1], as: UTF8.self), radix: 16)!)
        i += 2
    }
    return out
}

/// SplitMix64: a small seeded generator so that every test run draws the same values.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
