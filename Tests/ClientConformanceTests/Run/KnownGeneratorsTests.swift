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

    @Test func doesNotFindTheSystemsGenerator() {
        var generator = SourceGenerator(source: SystemRandomSource())
        let x = MPin(curve: .bn254cx).randomScalar(using: &generator)
        #expect(KnownGenerators.match(u: Self.u(x), mpinID: Self.mpinID, curve: .bn254cx) == nil)
    }
}
