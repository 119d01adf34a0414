import TestSupport
import Testing

@testable import MPinCrypto

/// GT exponentiation (GTExponentiation): GLS against the plain windows and square and multiply on
/// GT elements, the GT membership test, and that elements outside GT (cyclotomic or not unitary at
/// all) keep the plain result, on both curves.
struct GTExponentiationTests {
    typealias Edges = ScalarDecompositionTests

    /// A cyclotomic element outside GT: f^((p⁶ - 1)(p² + 1)) for a random f (the easy part of the
    /// final exponentiation), whose order is almost surely not r.
    static func cyclotomicOutsideGT<C: PairingCurve>(_: C.Type, seed: UInt64) -> Fp12<C> {
        let f = randomElement(C.self, seed: seed)
        let x = f.conjugate() * f.inverse()!
        return x.frobenius().frobenius() * x
    }

    /// A random element, not unitary.
    static func randomElement<C: PairingCurve>(_: C.Type, seed: UInt64) -> Fp12<C> {
        var rng = SplitMix64(seed: seed)
        return Fp12<C>(bytes: rng.bytes(384).enumerated().map { $0.offset % 32 == 0 ? 0 : $0.element })!
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func glsMatchesThePlainPower(curve: CurveID) {
        switch curve {
        case .bn254cx: check(BN254CX.self)
        case .bn254: check(BN254.self)
        }
    }

    func check<C: PairingCurve>(_: C.Type) {
        let e = Pairing<C>.pair(.generator, .generator)
        let f = Pairing<C>.pair(
            G2Point<C>.generator.multiplied(by: [9]), G1Point<C>.generator.multiplied(by: Array("gt".utf8)))
        for x in [e, f, Fp12<C>.one, e.conjugate()] {
            #expect(GTExponentiation.isInGT(x))
            let exponents =
                Edges.edgeScalars(C.self) + Edges.randomScalars(41, count: 6)
                + Edges.boundaryScalars(multipliers: C._glsMultipliers, order: C._r, seed: 42).prefix(12)
            for k in exponents {
                let bytes = Montgomery.bytes(k)
                let plain = GTExponentiation.plainPower(x, k, bits: 256)
                #expect(GTExponentiation.glsPower(x, k) == plain, "e = \(Hex.encode(bytes))")
                #expect(x.unitaryPower(limbs: k) == plain)
                #expect(x.unitaryPower(bytes).bytes == plain.bytes)
            }
            // Square and multiply, the generic reference.
            for k in Edges.randomScalars(43, count: 2) + [C._r, (.max, .max, .max, .max)] {
                #expect(x.unitaryPower(limbs: k) == x.power(Montgomery.bytes(k)))
            }
        }
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func elementsOutsideGTKeepThePlainPower(curve: CurveID) {
        switch curve {
        case .bn254cx: checkOutside(BN254CX.self)
        case .bn254: checkOutside(BN254.self)
        }
    }

    func checkOutside<C: PairingCurve>(_: C.Type) {
        let cyclotomic = Self.cyclotomicOutsideGT(C.self, seed: 44)
        let notUnitary = Self.randomElement(C.self, seed: 45)
        let gt = Pairing<C>.pair(.generator, .generator)
        #expect(!GTExponentiation.isInGT(cyclotomic) && !GTExponentiation.isInGT(notUnitary))
        #expect(!GTExponentiation.isInGT(gt * cyclotomic), "a GT element times one outside")
        #expect(cyclotomic.unitarySquared() == cyclotomic.squared(), "cyclotomic, as the test needs")
        var glsDiffers = false
        for k in Edges.edgeScalars(C.self) + Edges.randomScalars(46, count: 4) {
            for x in [cyclotomic, notUnitary] {
                #expect(x.unitaryPower(limbs: k) == GTExponentiation.plainPower(x, k, bits: 256))
            }
            #expect(cyclotomic.unitaryPower(limbs: k) == cyclotomic.power(Montgomery.bytes(k)))
            if GTExponentiation.glsPower(cyclotomic, k) != cyclotomic.power(Montgomery.bytes(k)) { glsDiffers = true }
        }
        #expect(glsDiffers, "GLS is wrong outside GT, so the plain path is needed there")
    }

    /// Narrow exponents (PIN-sized) take the plain windows of their width; on both sides of the
    /// GLS threshold the result is the same.
    @Test func exponentWidths() {
        typealias C = BN254CX
        let gt = Pairing<C>.pair(.generator, .generator)
        var rng = SplitMix64(seed: 47)
        for bits in [0, 1, 14, GTExponentiation.glsMinimumBits - 1, GTExponentiation.glsMinimumBits, 256] {
            let n = max(0, bits)
            func keep(_ i: Int) -> UInt64 {
                let m = max(0, min(64, n - 64 * i))
                return m == 64 ? .max : (1 << UInt64(m)) - 1
            }
            let k: Limbs4 = (rng.next() & keep(0), rng.next() & keep(1), rng.next() & keep(2), rng.next() & keep(3))
            #expect(gt.unitaryPower(limbs: k, bits: bits) == gt.power(Montgomery.bytes(k)), "\(bits) bits")
        }
    }

    /// powerInGT (no membership test) agrees with unitaryPower and square and multiply on pairing
    /// values, for random and edge exponents on both curves.
    @Test func powerInGTAgreesOnPairingValues() {
        func run<C: PairingCurve>(_: C.Type) {
            var rng = SplitMix64(seed: 61)
            let g = Pairing<C>.pair(G2Point<C>.generator.multiplied(by: rng.bytes(32)), G1Point<C>.generator)
            var exponents: [[UInt8]] = [[0], [1], Fr<C>.modulusBytes, [UInt8](repeating: 0xff, count: 32)]
            for _ in 0..<6 { exponents.append(rng.bytes(32)) }
            for e in exponents {
                #expect(g.powerInGT(e) == g.unitaryPower(e), "e = \(Hex.encode(e))")
                #expect(g.powerInGT(e) == g.power(e), "e = \(Hex.encode(e))")
            }
        }
        run(BN254CX.self)
        run(BN254.self)
    }
}
