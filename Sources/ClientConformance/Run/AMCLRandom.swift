import MPinCrypto

/// The generator of the AMCL crypto library (`RAND`, in every port of it, the JS one of the
/// Milagro headless library included), reimplemented to recognise its output: a Marsaglia–Zaman
/// subtract-with-borrow generator of 21 words (lag 6), stirred through SHA-256 into a pool of 32
/// bytes that `getByte` hands out, and a pool of zeros before the first fill. Seeding hashes the
/// raw bytes and folds the digest's eight little-endian words in (`sirand`, with 10,000 warm-up
/// steps). Unseeded, every word is 0, so the bytes are 32 zeros and then SHA-256 of 128 zero bytes
/// again and again: the same x in every process (issue 35's measurement).
///
/// A scalar is drawn as AMCL's `BIG.randomnum(r, rng)` draws it (MPIN's RANDOM_GENERATE and
/// CLIENT_1): 2·254 bits, each byte's bits lowest first, shifted in from the top, then reduced
/// modulo r.
struct AMCLRandom {
    private var words = [UInt32](repeating: 0, count: 21)
    private var index = 0
    private var borrow: UInt32 = 0
    private var pool = [UInt8](repeating: 0, count: 32)
    private var poolIndex = 0

    /// The generator as constructed, never seeded.
    init() {}

    /// The generator seeded with `raw` (AMCL's `seed(rawlen, raw)`).
    init(seed raw: [UInt8]) {
        let digest = SHA256.hash(raw)
        for i in 0..<8 {
            let word =
                UInt32(digest[4 * i]) | UInt32(digest[4 * i + 1]) << 8 | UInt32(digest[4 * i + 2]) << 16
                | UInt32(digest[4 * i + 3]) << 24
            stir(word)
        }
        fill()
    }

    /// The next word of the subtract-with-borrow generator.
    private mutating func next() -> UInt32 {
        index += 1
        if index < 21 { return words[index] }
        index = 0
        var k = 15
        for i in 0..<21 {
            if k == 21 { k = 0 }
            let t = words[k]
            let difference = t &- words[i] &- borrow
            if difference < t { borrow = 0 }
            if difference > t { borrow = 1 }
            words[i] = difference
            k += 1
        }
        return words[0]
    }

    /// Folds a seed word into the state, then runs the generator 10,000 steps.
    private mutating func stir(_ seed: UInt32) {
        borrow = 0
        index = 0
        var seed = seed
        words[0] ^= seed
        var m: UInt32 = 1
        for i in 1..<21 {
            words[(8 * i) % 21] ^= m
            let t = m
            m = seed &- m
            seed = t
        }
        for _ in 0..<10_000 { _ = next() }
    }

    /// A new pool: SHA-256 of the low bytes of 128 words.
    private mutating func fill() {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        for _ in 0..<128 { bytes.append(UInt8(truncatingIfNeeded: next())) }
        pool = SHA256.hash(bytes)
        poolIndex = 0
    }

    mutating func byte() -> UInt8 {
        let value = pool[poolIndex]
        poolIndex += 1
        if poolIndex >= 32 { fill() }
        return value
    }

    /// A scalar as `BIG.randomnum` draws it, big-endian in 32 bytes.
    mutating func scalar(curve: CurveID) -> [UInt8] {
        var bits: [Bool] = []
        bits.reserveCapacity(508)
        var current: UInt8 = 0
        for i in 0..<508 {
            if i % 8 == 0 { current = byte() } else { current >>= 1 }
            bits.append(current & 1 == 1)
        }
        // The 508 bits, first one highest, as 64 big-endian bytes (4 leading zero bits).
        var wide = [UInt8](repeating: 0, count: 64)
        for (position, bit) in bits.enumerated() where bit {
            let fromLow = 507 - position
            wide[63 - fromLow / 8] |= UInt8(1 << (fromLow % 8))
        }
        return curve == .bn254 ? Fr<BN254>(reducing: wide).bytes : Fr<BN254CX>(reducing: wide).bytes
    }
}
