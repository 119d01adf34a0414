import MPinCrypto
import SDKSeams
import Testing

@testable import ClientConformance

/// An x of a known generator is told from its U = x·H(ID); one of the system's generator is not.
@Suite struct KnownGeneratorsTests {
    static let mpinID = Array(#"{"userID":"alice@example.com"}"#.utf8)

    static func u(_ x: [UInt8]) -> [UInt8] {
        let mpin = MPin(curve: .bn254cx)
        return mpin.g1Multiple(scalar: x, hashed: false, g: mpin.mapToG1(mpin.hashID(mpinID)))!
    }

    @Test func findsSplitMix64OfACommonSeed() {
        var generator = SourceGenerator(source: SplitMixSource(seed: 42))
        let mpin = MPin(curve: .bn254cx)
        _ = mpin.randomScalar(using: &generator)
        let second = mpin.randomScalar(using: &generator)
        let found = KnownGenerators.match(u: Self.u(second), mpinID: Self.mpinID, curve: .bn254cx)
        #expect(found == "SplitMix64 seeded with 42, its scalar 2")
    }

    @Test func findsASmallScalar() {
        var seven = [UInt8](repeating: 0, count: 32)
        seven[31] = 7
        #expect(KnownGenerators.match(u: Self.u(seven), mpinID: Self.mpinID, curve: .bn254cx) == "the small scalar 7")
    }

    /// AMCL's RAND never seeded hands out 32 zero bytes, then SHA-256 of 128 zero bytes over and
    /// over; `randomnum` reads 508 bits of them, each byte lowest bit first: the bytes with their
    /// bits reversed, as one big-endian number, shifted right by 4, modulo r.
    @Test func amclsUnseededGeneratorIsItsClosedForm() {
        let h = SHA256.hash([UInt8](repeating: 0, count: 128))
        let stream = [UInt8](repeating: 0, count: 32) + h
        let reversed = stream.map(Self.reversedBits)
        var shifted = [UInt8](repeating: 0, count: 64)
        for i in 0..<64 { shifted[i] = (i > 0 ? reversed[i - 1] << 4 : 0) | reversed[i] >> 4 }
        var generator = AMCLRandom()
        #expect(generator.scalar(curve: .bn254cx) == Fr<BN254CX>(reducing: shifted).bytes)
    }

    /// A byte with its bits in the other order.
    static func reversedBits(_ byte: UInt8) -> UInt8 {
        var out: UInt8 = 0
        for bit in 0..<8 where byte & (1 << bit) != 0 { out |= 1 << (7 - bit) }
        return out
    }

    @Test func findsAMCLsUnseededGenerator() {
        var generator = AMCLRandom()
        let x = generator.scalar(curve: .bn254cx)
        #expect(
            KnownGenerators.match(u: Self.u(x), mpinID: Self.mpinID, curve: .bn254cx)
                == "AMCL's RAND never seeded, its scalar 1")
        var seeded = AMCLRandom(seed: (0..<100).map { UInt8($0) })
        var same = AMCLRandom(seed: (0..<100).map { UInt8($0) })
        #expect(seeded.scalar(curve: .bn254cx) == same.scalar(curve: .bn254cx))
        #expect(AMCLRandom(seed: [1]).scalarOnce != AMCLRandom(seed: [2]).scalarOnce)
    }

    @Test func doesNotFindTheSystemsGenerator() {
        var generator = SourceGenerator(source: SystemRandomSource())
        let x = MPin(curve: .bn254cx).randomScalar(using: &generator)
        #expect(KnownGenerators.match(u: Self.u(x), mpinID: Self.mpinID, curve: .bn254cx) == nil)
    }
}

extension AMCLRandom {
    /// The first scalar of a generator.
    var scalarOnce: [UInt8] {
        var copy = self
        return copy.scalar(curve: .bn254cx)
    }
}
