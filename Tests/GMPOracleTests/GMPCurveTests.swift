import GMPOracle
import TestSupport
import Testing

/// Self-tests of `GMPCurve`: the typed-in parameters against the BN formulas, and the group law
/// against its algebraic identities.
@Suite struct GMPCurveTests {
    @Test(arguments: GMPCurve.all)
    func parametersFollowFromU(curve: GMPCurve) {
        let u = curve.u
        let u2 = u.power(2), u3 = u.power(3), u4 = u.power(4)
        let c = { (k: Int) in GMPInteger(k) }
        let p = c(36) * u4 + c(36) * u3 + c(24) * u2 + c(6) * u + c(1)
        let r = c(36) * u4 + c(36) * u3 + c(18) * u2 + c(6) * u + c(1)
        let t = c(6) * u2 + c(1)
        #expect(curve.p == p, "p = 36u⁴+36u³+24u²+6u+1")
        #expect(curve.r == r, "r = 36u⁴+36u³+18u²+6u+1")
        #expect(curve.r == curve.p + c(1) - t, "#E = p + 1 − t with t = 6u²+1")
        #expect(curve.p.isProbablePrime() && curve.r.isProbablePrime())
        #expect(curve.p.modulo(c(8)) == c(3) && curve.p.modulo(c(12)) == c(7))
        #expect(curve.p.bitWidth == 254 && curve.r.bitWidth == 254)
        #expect(u.signum < 0)
        #expect(curve.b == c(2))
        #expect(curve.generator == .affine(x: curve.p - c(1), y: c(1)), "P = (−1, 1)")
    }

    @Test func namedParameters() {
        #expect(GMPCurve.bn254cx.name == "bn254cx" && GMPCurve.bn254.name == "bn254")
        let two = GMPInteger(2)
        #expect(GMPCurve.bn254.u == -(two.power(62) + two.power(55) + GMPInteger(1)))
        #expect(GMPCurve.bn254cx.u == GMPInteger(hex: "-4000000003c012b1"))
    }

    @Test(arguments: GMPCurve.all)
    func generatorHasOrderR(curve: GMPCurve) {
        let g = curve.generator
        #expect(curve.isOnCurve(g))
        #expect(curve.multiply(g, by: curve.r) == .infinity, "r·G = O")
        #expect(curve.multiply(g, by: curve.r - GMPInteger(1)) == curve.negate(g), "(r−1)·G = −G")
        #expect(curve.multiply(g, by: curve.r + GMPInteger(1)) == g, "(r+1)·G = G")
        #expect(curve.multiply(g, by: GMPInteger(0)) == .infinity)
        #expect(curve.multiply(g, by: GMPInteger(1)) == g)
        #expect(curve.multiply(g, by: GMPInteger(-1)) == curve.negate(g))
        #expect(curve.multiply(g, scalar: curve.r.bigEndianBytes(count: 40)!) == .infinity)
        #expect(curve.multiply(.infinity, by: GMPInteger(12345)) == .infinity)
    }

    @Test(arguments: GMPCurve.all)
    func groupLaw(curve: GMPCurve) {
        var rng = SplitMix64(seed: SplitMix64.seedForRun())
        let g = curve.generator
        for _ in 0..<20 {
            let a = curve.scalarField.reducing(bytes: rng.bytes(40))
            let b = curve.scalarField.reducing(bytes: rng.bytes(40))
            let pa = curve.multiply(g, by: a), pb = curve.multiply(g, by: b)
            #expect(curve.isOnCurve(pa) && curve.isOnCurve(pb))
            #expect(curve.add(pa, pb) == curve.add(pb, pa), "commutative")
            #expect(curve.add(pa, pb) == curve.multiply(g, by: a + b), "aG + bG = (a+b)G")
            #expect(curve.multiply(pa, by: b) == curve.multiply(pb, by: a), "b(aG) = a(bG)")
            let pc = curve.multiply(g, by: GMPInteger(rng.next()))
            #expect(curve.add(curve.add(pa, pb), pc) == curve.add(pa, curve.add(pb, pc)), "associative")
            #expect(curve.double(pa) == curve.add(pa, pa))
            #expect(curve.double(pa) == curve.multiply(pa, by: GMPInteger(2)))
            #expect(curve.add(pa, curve.negate(pa)) == .infinity)
            #expect(curve.subtract(pa, pb) == curve.multiply(g, by: a - b))
            #expect(curve.add(pa, .infinity) == pa && curve.add(.infinity, pa) == pa)
            #expect(curve.multiply(pa, by: curve.r) == .infinity, "cofactor 1: every point has order r")
        }
        #expect(curve.double(.infinity) == .infinity && curve.negate(.infinity) == .infinity)
    }

    @Test(arguments: GMPCurve.all)
    func encodingRoundTrip(curve: GMPCurve) throws {
        var rng = SplitMix64(seed: SplitMix64.seedForRun())
        let g = curve.generator
        let gBytes = curve.encode(g)
        #expect(gBytes == [0x04] + (curve.p - GMPInteger(1)).bigEndianBytes()! + [UInt8](repeating: 0, count: 31) + [1])
        #expect(curve.encode(g, compressed: true) == [0x03] + (curve.p - GMPInteger(1)).bigEndianBytes()!)
        #expect(curve.encode(.infinity).isEmpty)
        for _ in 0..<30 {
            let point = curve.multiply(g, by: GMPInteger(bigEndian: rng.bytes(32)))
            let full = curve.encode(point), short = curve.encode(point, compressed: true)
            #expect(full.count == 65 && short.count == 33)
            #expect(curve.decode(full) == point)
            #expect(curve.decode(short) == point)
            let flipped = [short[0] ^ 1] + short.dropFirst()
            #expect(curve.decode(flipped) == curve.negate(point), "the prefix picks the parity of y")
        }
        // Rejections.
        var offCurve = gBytes
        offCurve[64] = 2
        #expect(curve.decode(offCurve) == nil, "off the curve")
        var bigX = gBytes
        bigX.replaceSubrange(1...32, with: curve.p.bigEndianBytes()!)
        #expect(curve.decode(bigX) == nil, "x = p")
        #expect(curve.decode([0x05] + gBytes.dropFirst()) == nil, "bad prefix")
        #expect(curve.decode(Array(gBytes.dropLast())) == nil, "short")
        #expect(curve.decode([]) == nil)
        // x = 0: x³ + 2 = 2, which is not a square since p ≡ 3 (mod 8).
        #expect(curve.decode([0x02] + [UInt8](repeating: 0, count: 32)) == nil, "no point with x = 0")
    }

    @Test(arguments: GMPCurve.all)
    func wrongValuesAreCaught(curve: GMPCurve) throws {
        let g = curve.generator
        let (x, y) = try #require(g.coordinates)
        #expect(!curve.isOnCurve(.affine(x: x, y: y + GMPInteger(1))))
        #expect(!curve.isOnCurve(.affine(x: x + curve.p, y: y)), "unreduced coordinates are rejected")
        #expect(curve.point(x: x, y: GMPInteger(2)) == nil)
        #expect(curve.multiply(g, by: curve.r - GMPInteger(2)) != .infinity)
        #expect(curve.multiply(g, by: curve.p) != .infinity, "p is not the group order")
        #expect(curve.add(g, g) != g)
    }
}
