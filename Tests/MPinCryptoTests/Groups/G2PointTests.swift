import TestSupport
import Testing

@testable import MPinCrypto

struct G2PointTests {
    typealias Q = G2Point<BN254CX>

    @Test func generatorOrderAndFrobenius() {
        #expect(Q.generator.isInSubgroup)
        #expect(G2Point<BN254>.generator.isInSubgroup)
        // π(Q) = [p]·Q on G2, and π is additive.
        let p = Fp<BN254CX>.modulusBytes
        #expect(Q.generator.frobenius() == Q.generator.multiplied(by: p))
        let q5 = Q.generator.multiplied(by: [5])
        #expect(q5.frobenius() == Q.generator.frobenius().multiplied(by: [5]))
    }

    @Test func encodingAndSubgroupCheck() throws {
        var rng = SplitMix64(seed: 21)
        let q = Q.generator.multiplied(by: rng.bytes(32))
        #expect(try Q.decode(q.encoded(), checkSubgroup: true) == q)
        #expect(throws: PointDecodingError.wrongLength(expected: [128], actual: 65)) {
            try Q.decode([UInt8](repeating: 1, count: 65))
        }
        #expect(throws: PointDecodingError.pointAtInfinity) { try Q.decode(Q.infinity.encoded()) }
        var bad = q.encoded()
        bad[127] ^= 1
        #expect(throws: PointDecodingError.notOnCurve) { try Q.decode(bad) }
        // A point on the twist outside G2: the twist has order r·(2p - r), so a point found by
        // trying x = 1, 2, 3, ... is almost surely not of order r.
        var x = Fp2<BN254CX>(Fp(1), .zero)
        var found: Q? = nil
        while found == nil {
            if let y = (x.squared() * x + Q.b).squareRoot() { found = Q(x: x, y: y) }
            x = x + .one
        }
        let outside = found!
        #expect(!outside.isInSubgroup)
        #expect(try Q.decode(outside.encoded()) == outside, "AMCL does no subgroup check by default")
        #expect(throws: PointDecodingError.notInSubgroup) { try Q.decode(outside.encoded(), checkSubgroup: true) }
    }
}
