import TestSupport
import Testing

@testable import MPinCrypto

struct G1PointTests {
    typealias P = G1Point<BN254CX>

    @Test func generatorAndOrder() {
        #expect(
            Hex.encode(P.generator.encoded()) == "04" + Hex.encode(Fp<BN254CX>.modulusBytes).dropLast(2) + "b2"
                + String(repeating: "0", count: 62) + "01")
        #expect(P.generator.multiplied(by: Fr<BN254CX>.modulusBytes).isInfinity, "r·G = O")
        #expect(G1Point<BN254>.generator.multiplied(by: Fr<BN254>.modulusBytes).isInfinity)
    }

    @Test func groupLaw() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20 {
            let a = rng.bytes(32), b = rng.bytes(32)
            let pa = P.generator.multiplied(by: a), pb = P.generator.multiplied(by: b)
            let sum = (Fr<BN254CX>(reducing: a) + Fr<BN254CX>(reducing: b)).bytes
            #expect(pa + pb == P.generator.multiplied(by: sum))
            #expect(pa + pa == pa.doubled())
            #expect(pa - pa == .infinity)
            #expect(pa + .infinity == pa)
            #expect(-(-pa) == pa)
        }
    }

    @Test func encodingRoundTrips() throws {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<20 {
            let p = P.generator.multiplied(by: rng.bytes(32))
            #expect(try P.decode(p.encoded()) == p)
            #expect(try P.decode(p.encoded(compressed: true)) == p)
            #expect(p.encoded().count == 65 && p.encoded(compressed: true).count == 33)
        }
    }

    @Test func decodingErrorsAreTyped() {
        let good = P.generator.encoded()
        #expect(throws: PointDecodingError.wrongLength(expected: [65, 33], actual: 64)) {
            try P.decode(Array(good.dropLast()))
        }
        #expect(throws: PointDecodingError.wrongLength(expected: [65, 33], actual: 0)) { try P.decode([]) }
        var badPrefix = good
        badPrefix[0] = 0x05
        #expect(throws: PointDecodingError.badPrefix(0x05)) { try P.decode(badPrefix) }
        var compressedBadPrefix = P.generator.encoded(compressed: true)
        compressedBadPrefix[0] = 0x04
        #expect(throws: PointDecodingError.badPrefix(0x04)) { try P.decode(compressedBadPrefix) }
        let outOfRange = [0x04] + Fp<BN254CX>.modulusBytes + [UInt8](repeating: 0, count: 31) + [1]
        #expect(throws: PointDecodingError.coordinateOutOfRange) { try P.decode(outOfRange) }
        var offCurve = good
        offCurve[64] ^= 1
        #expect(throws: PointDecodingError.notOnCurve) { try P.decode(offCurve) }
        #expect(throws: PointDecodingError.pointAtInfinity) { try P.decode(P.infinity.encoded()) }
        #expect(P(encoded: offCurve) == nil)
    }
}
