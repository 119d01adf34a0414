import MPinCrypto
import MilagroRecording
import SDKSeams

/// Generators whose output the suite knows, so that it can tell an x drawn from one of them:
/// docs/protocol.md §11.13 (a core seeded with the time), and the open-source JS library seen
/// with its generator never seeded (issue 35). A client's x is checked against the public U of
/// its pass 1 (U = x·H(ID), docs/protocol.md §6.4) for the first `positions` scalars of each.
///
/// AMCL's generator (`AMCLRandom`), never seeded or seeded with constant bytes, draws its scalars
/// as AMCL does. The others' words become a scalar as the SDK's do (eight 8-byte draws, each read
/// low byte first, `MPin.randomScalar`): SplitMix64 of common seeds (0 to 16, 42, 1234, 12345, 31337,
/// 0xDEADBEEF, 0xCAFEBABE, 2^32 − 1, 2^64 − 1), the workbench's seeded source (FNV-1a then
/// SplitMix64, `SeededRandomSource`) of the seeds its tools and examples use, a counter (draws 0,
/// 1, 2, ...), a source of zeros, and the small scalars 1 to 1000 themselves.
enum KnownGenerators {
    /// A generator, by name, and its first scalars.
    struct Candidate: Sendable {
        var name: String
        var scalars: [[UInt8]]
    }

    /// The SplitMix64 seeds tried.
    static let splitMixSeeds: [UInt64] =
        Array(0...16) + [42, 1234, 12345, 31337, 0xDEAD_BEEF, 0xCAFE_BABE, 0xFFFF_FFFF, .max]
    /// The text seeds of the workbench's seeded source tried.
    static let textSeeds = ["", "0", "1", "42", "seed", "test", "demo", "workbench", "conform", "mpin", "milagro"]
    /// AMCL's generator unseeded, and seeded with the constant bytes its examples and tests use.
    static let amclSeeds: [(String, [UInt8]?)] = [
        ("AMCL's RAND never seeded", nil),
        ("AMCL's RAND seeded with 100 zero bytes", [UInt8](repeating: 0, count: 100)),
        ("AMCL's RAND seeded with the bytes 0 to 99", (0..<100).map { UInt8($0) }),
        ("AMCL's RAND seeded with the bytes 1 to 100", (1...100).map { UInt8($0) }),
    ]
    /// How many scalars of each generator are tried.
    static let positions = 4
    /// The small scalars tried (x = k for k in 1...this).
    static let smallScalars = 1000

    /// The candidates on a curve.
    static func candidates(curve: CurveID) -> [Candidate] {
        let mpin = MPin(curve: curve)
        func scalars(_ source: any RandomSource) -> [[UInt8]] {
            var generator = SourceGenerator(source: source)
            return (0..<positions).map { _ in mpin.randomScalar(using: &generator) }
        }
        var out: [Candidate] = []
        for seed in splitMixSeeds {
            out.append(Candidate(name: "SplitMix64 seeded with \(seed)", scalars: scalars(SplitMixSource(seed: seed))))
        }
        for seed in textSeeds {
            out.append(
                Candidate(
                    name: "the workbench's seeded generator with the seed \"\(seed)\"",
                    scalars: scalars(SeededRandomSource(seed: seed))))
        }
        for (name, seed) in amclSeeds {
            var generator = seed.map(AMCLRandom.init(seed:)) ?? AMCLRandom()
            out.append(Candidate(name: name, scalars: (0..<positions).map { _ in generator.scalar(curve: curve) }))
        }
        out.append(Candidate(name: "a counter (draws 0, 1, 2, ...)", scalars: scalars(CounterSource())))
        out.append(Candidate(name: "a source of zeros", scalars: scalars(ConstantSource(byte: 0))))
        out.append(Candidate(name: "a source of 0xFF bytes", scalars: scalars(ConstantSource(byte: 0xFF))))
        return out
    }

    /// The generator (and the position in it) whose x gives `u` for the M-Pin ID, or nil.
    static func match(u: [UInt8], mpinID: [UInt8], curve: CurveID) -> String? {
        let mpin = MPin(curve: curve)
        let point = mpin.mapToG1(mpin.hashID(mpinID))
        for candidate in candidates(curve: curve) {
            for (position, x) in candidate.scalars.enumerated()
            where mpin.g1Multiple(scalar: x, hashed: false, g: point) == u {
                return "\(candidate.name), its scalar \(position + 1)"
            }
        }
        let k =
            curve == .bn254
            ? smallMultiple(BN254.self, of: point, equalTo: u) : smallMultiple(BN254CX.self, of: point, equalTo: u)
        return k.map { "the small scalar \($0)" }
    }

    /// The k in 1...`smallScalars` with k·P = Q, or nil.
    static func smallMultiple<C: PairingCurve>(_: C.Type, of p: [UInt8], equalTo q: [UInt8]) -> Int? {
        guard let point = G1Point<C>(encoded: p), let target = G1Point<C>(encoded: q) else { return nil }
        var multiple = G1Point<C>.infinity
        for k in 1...smallScalars {
            multiple = multiple + point
            if multiple == target { return k }
        }
        return nil
    }
}

/// A `RandomNumberGenerator` over a `RandomSource`, as the SDK draws: 8 bytes a word, low byte first.
struct SourceGenerator: RandomNumberGenerator {
    let source: any RandomSource

    mutating func next() -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in source.randomBytes(count: 8).prefix(8).enumerated() {
            value |= UInt64(byte) << (8 * UInt64(index))
        }
        return value
    }
}

/// SplitMix64's words as bytes, low byte first (not thread-safe: one per candidate).
final class SplitMixSource: RandomSource, @unchecked Sendable {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    func randomBytes(count: Int) -> [UInt8] { generator.bytes(count) }
}

/// Draws 0, 1, 2, ... as 8-byte words, low byte first.
final class CounterSource: RandomSource, @unchecked Sendable {
    private var count: UInt64 = 0

    func randomBytes(count: Int) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            var word = self.count
            self.count += 1
            for _ in 0..<8 {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(out.prefix(count))
    }
}

/// The same byte, always.
struct ConstantSource: RandomSource {
    let byte: UInt8
    func randomBytes(count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }
}
