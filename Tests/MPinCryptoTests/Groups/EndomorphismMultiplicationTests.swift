import TestSupport
import Testing

@testable import MPinCrypto

/// GLV on G1 and GLS on G2 against the variable-time windows (`multipliedVartime`), on both
/// curves: edge scalars, random scalars and the decomposition's rounding boundaries; the
/// endomorphisms themselves; and the subgroup knowledge that keeps GLS off twist points outside G2.
struct EndomorphismMultiplicationTests {
    typealias Edges = ScalarDecompositionTests

    static func scalars<C: PairingCurve>(_: C.Type, multipliers: [Limbs4], seed: UInt64) -> [Limbs4] {
        Edges.edgeScalars(C.self) + Edges.randomScalars(seed, count: 12)
            + Edges.boundaryScalars(multipliers: multipliers, order: C._r, seed: seed)
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func glvMatchesThePlainMultiplication(curve: CurveID) {
        switch curve {
        case .bn254cx: checkGLV(BN254CX.self)
        case .bn254: checkGLV(BN254.self)
        }
    }

    func checkGLV<C: PairingCurve>(_: C.Type) {
        let g = G1Point<C>.generator
        // φ(P) = λ·P, on affine and on Jacobian (Z ≠ 1) points.
        let lambda = Montgomery.bytes(C._glvLambda)
        let p = g.multiplied(by: Array("glv base".utf8))
        for point in [g, p, p.doubled() + g, G1Point<C>.infinity] {
            #expect(G1Point(G1Point<C>.endomorphism(point.p)) == point.multipliedVartime(by: lambda))
        }
        let bases = [g, p, p.doubled() + g, .infinity, MPinEngine<C>.hashToG1(id: Array("glv@example.com".utf8))]
        for base in bases {
            for k in Self.scalars(C.self, multipliers: C._glvMultipliers, seed: 31) {
                let bytes = Montgomery.bytes(k)
                let expected = base.multipliedVartime(by: bytes)
                let glv = base.glvMultiplied(by: k)
                #expect(glv == expected, "k = \(Hex.encode(bytes))")
                #expect(glv.encoded() == expected.encoded(), "k = \(Hex.encode(bytes))")
                #expect(base.multiplied(by: bytes) == expected)
            }
        }
        // The windows' choice by width: both sides of the threshold, and the full width.
        var rng = SplitMix64(seed: 32)
        for bits in [G1Point<C>.glvMinimumBits - 1, G1Point<C>.glvMinimumBits, 200, 256] {
            var k: Limbs4 = (rng.next(), rng.next(), rng.next(), rng.next())
            let keep = { (i: Int) -> UInt64 in
                let n = max(0, min(64, bits - 64 * i))
                return n == 64 ? .max : (1 << UInt64(n)) - 1
            }
            k = (k.0 & keep(0), k.1 & keep(1), k.2 & keep(2), k.3 & keep(3))
            #expect(
                p.multiplied(byLimbs: k, bits: bits) == p.multipliedVartime(by: Montgomery.bytes(k)), "\(bits) bits")
        }
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func glsMatchesThePlainMultiplication(curve: CurveID) {
        switch curve {
        case .bn254cx: checkGLS(BN254CX.self)
        case .bn254: checkGLS(BN254.self)
        }
    }

    func checkGLS<C: PairingCurve>(_: C.Type) {
        let q = G2Point<C>.generator
        let pBytes = Montgomery.bytes(C._p)
        let s = q.multiplied(by: Array("gls base".utf8))
        #expect(s.knownInSubgroup && s.isInSubgroup)
        // ψ(Q) = p·Q on G2, in Jacobian coordinates (Z ≠ 1) too.
        for point in [q, s, s.doubled() + q, G2Point<C>.infinity] {
            #expect(G2Point(G2Point<C>.endomorphism(point.p)) == point.multipliedVartime(by: pBytes))
        }
        for base in [q, s, s.doubled() - q, G2Point<C>.infinity] {
            #expect(base.knownInSubgroup)
            for k in Self.scalars(C.self, multipliers: C._glsMultipliers, seed: 33) {
                let bytes = Montgomery.bytes(k)
                let expected = base.multipliedVartime(by: bytes)
                let gls = base.multiplied(by: bytes)
                #expect(gls == expected, "k = \(Hex.encode(bytes))")
                #expect(gls.encoded() == expected.encoded(), "k = \(Hex.encode(bytes))")
                #expect(gls.knownInSubgroup)
            }
        }
    }

    /// Which points are known to be in G2, and that the others get the plain multiplication: on a
    /// twist point outside G2, GLS would give another point.
    @Test(arguments: [CurveID.bn254cx, .bn254])
    func glsOnlyOnPointsKnownInG2(curve: CurveID) throws {
        switch curve {
        case .bn254cx: try checkKnowledge(BN254CX.self)
        case .bn254: try checkKnowledge(BN254.self)
        }
    }

    func checkKnowledge<C: PairingCurve>(_: C.Type) throws {
        let mpin = MPin(curve: C.id)
        let q = G2Point<C>.generator
        let s = q.multiplied(by: [7])
        let outside = try #require(G2Point<C>(encoded: mpin.twistPointOutsideG2(from: Array("gls".utf8))))
        #expect(q.knownInSubgroup && G2Point<C>.infinity.knownInSubgroup && s.knownInSubgroup)
        #expect(
            (s + q).knownInSubgroup && (s - q).knownInSubgroup && (-s).knownInSubgroup && s.doubled().knownInSubgroup)
        #expect(s.frobenius().knownInSubgroup)
        #expect(!G2Point<C>(encoded: s.encoded())!.knownInSubgroup, "decoded without the check: unknown")
        #expect(try G2Point<C>.decode(s.encoded(), checkSubgroup: true).knownInSubgroup)
        #expect(
            !outside.knownInSubgroup && !(outside + q).knownInSubgroup && !outside.multiplied(by: [3]).knownInSubgroup)
        // A point in G2 that is not known to be (decoded unchecked) still multiplies right, plainly.
        let unknown = G2Point<C>(encoded: s.encoded())!
        var differs = false
        for k in Edges.edgeScalars(C.self) + Edges.randomScalars(34, count: 4) {
            let bytes = Montgomery.bytes(k)
            let expected = outside.multipliedVartime(by: bytes)
            #expect(outside.multiplied(by: bytes) == expected, "k = \(Hex.encode(bytes))")
            #expect((outside + q).multiplied(by: bytes) == (outside + q).multipliedVartime(by: bytes))
            #expect(unknown.multiplied(by: bytes) == s.multiplied(by: bytes))
            if outside.glsMultiplied(by: k) != expected { differs = true }
        }
        #expect(differs, "GLS is wrong outside G2, so the plain path is needed there")
    }
}
