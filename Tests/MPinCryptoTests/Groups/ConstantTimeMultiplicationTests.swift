import TestSupport
import Testing

@testable import MPinCrypto

/// The constant-time scalar multiplication and addition against the variable-time ones, on random
/// scalars and on the edges where a fixed-window ladder goes wrong: 0, 1, r - 1, r, k ≥ r (up to
/// 2^256 - 1, as AMCL reads 32 bytes), k = r + 2d (the last window adds the accumulator to itself),
/// zero windows, and G2 points outside the subgroup of order r (exceptions in any window).
struct ConstantTimeMultiplicationTests {
    /// a + b on 256-bit limbs (no overflow in these tests).
    static func plus(_ a: Limbs4, _ b: Limbs4) -> Limbs4 {
        var out = [UInt64](repeating: 0, count: 4)
        var carry: UInt64 = 0
        for (i, (x, y)) in zip([a.0, a.1, a.2, a.3], [b.0, b.1, b.2, b.3]).enumerated() {
            (out[i], carry) = Montgomery.adc(x, y, carry)
        }
        #expect(carry == 0, "the test's scalars stay below 2^256")
        return (out[0], out[1], out[2], out[3])
    }

    static func small(_ k: UInt64) -> Limbs4 { (k, 0, 0, 0) }

    /// 32-byte scalars covering the edges, for the curve's r.
    static func edgeScalars<C: PairingCurve>(_: C.Type) -> [[UInt8]] {
        let r = C._r
        var limbs: [Limbs4] = [small(0), small(1), small(2), small(15), small(16), small(17), small(0xFFFF)]
        limbs.append(Montgomery.subRaw(r, small(1)))  // r - 1
        limbs.append(r)  // r: k·P = O, the last addition is P + (-P)
        limbs.append(plus(r, small(1)))
        for d in 1...15 { limbs.append(plus(r, small(UInt64(2 * d)))) }  // r + 2d: the last addition doubles
        limbs.append(plus(r, r))  // 2r
        limbs.append(plus(plus(r, r), r))  // 3r
        limbs.append((.max, .max, .max, .max))  // 2^256 - 1, taken as it is
        limbs.append((0, 0, 0, 1 << 60))  // one non-zero window, the first
        limbs.append((1, 0, 0, 1 << 60))  // zero windows between two digits
        limbs.append((0x0F0F_0F0F_0F0F_0F0F, 0xF0F0_F0F0_F0F0_F0F0, 0, 0x00FF_00FF_00FF_00FF))
        limbs.append((0, 1, 0, 0))  // 2^64
        limbs.append((r.0 & ~0xFFFF, r.1, r.2, r.3))  // r with its four lowest windows zero
        return limbs.map(Montgomery.bytes)
    }

    static func randomScalars(_ seed: UInt64, count: Int) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in rng.bytes(i % 5 == 4 ? 40 + i : 32) }  // some longer than 32 bytes
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func g1MultiplicationMatchesTheVariableTimeOne(curve: CurveID) {
        switch curve {
        case .bn254cx: checkG1(BN254CX.self)
        case .bn254: checkG1(BN254.self)
        }
    }

    func checkG1<C: PairingCurve>(_: C.Type) {
        let bases = [G1Point<C>.generator, G1Point<C>.generator.multiplied(by: Array("base".utf8)), .infinity]
        for base in bases {
            for k in Self.edgeScalars(C.self) + Self.randomScalars(21, count: 20) {
                let ct = base.multiplied(by: k)
                #expect(ct == base.multipliedVartime(by: k), "k = \(Hex.encode(k))")
                #expect(ct.encoded() == base.multipliedVartime(by: k).encoded(), "k = \(Hex.encode(k))")
                // k·P = (k mod r)·P, whichever k.
                #expect(ct == base.multipliedVartime(by: Fr<C>(reducing: k).bytes), "k = \(Hex.encode(k))")
            }
        }
        #expect(G1Point<C>.generator.multiplied(by: Montgomery.bytes(C._r)).isInfinity)
        #expect(G1Point<C>.generator.multiplied(by: []).isInfinity)
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func g2MultiplicationMatchesTheVariableTimeOne(curve: CurveID) {
        switch curve {
        case .bn254cx: checkG2(BN254CX.self)
        case .bn254: checkG2(BN254.self)
        }
    }

    func checkG2<C: PairingCurve>(_: C.Type) {
        let mpin = MPin(curve: C.id)
        // A twist point outside G2 and its part of order dividing the cofactor: the additions of any
        // window may meet P = Q there.
        let outside = G2Point<C>(encoded: mpin.twistPointOutsideG2(from: Array("ct".utf8)))!
        let cofactorPart = outside.multipliedVartime(by: Montgomery.bytes(C._r))
        #expect(!outside.isInSubgroup && !cofactorPart.isInfinity)
        var bases = [G2Point<C>.generator, outside, cofactorPart, .infinity]
        let (hOver13, remainder) = Self.divide(Self.twistCofactor(C.self), by: 13)
        if remainder == 0 {
            // BN254: a point of order 13, where the accumulator meets the table entry in any window.
            let order13 = cofactorPart.multipliedVartime(by: Montgomery.bytes(hOver13))
            #expect(!order13.isInfinity && order13.multipliedVartime(by: [13]).isInfinity)
            #expect(!G2Point<C>.ordersAreLarge)
            bases.append(order13)
        }
        for base in bases {
            for k in Self.edgeScalars(C.self) + Self.randomScalars(22, count: 8) {
                let ct = base.multiplied(by: k)
                #expect(ct == base.multipliedVartime(by: k), "k = \(Hex.encode(k))")
                #expect(ct.encoded() == base.multipliedVartime(by: k).encoded(), "k = \(Hex.encode(k))")
            }
        }
        #expect(G2Point<C>.generator.multiplied(by: Montgomery.bytes(C._r)).isInfinity)
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func additionHandlesEveryCaseWithoutBranches(curve: CurveID) {
        switch curve {
        case .bn254cx: checkAddition(BN254CX.self)
        case .bn254: checkAddition(BN254.self)
        }
    }

    func checkAddition<C: PairingCurve>(_: C.Type) {
        let p = G1Point<C>.generator.multiplied(by: Array("p".utf8)).p
        let q = G1Point<C>.generator.multiplied(by: Array("q".utf8)).p
        let o = JacobianPoint<Fp<C>>.infinity
        for (a, b) in [(p, q), (p, p), (p, p.negated()), (o, p), (p, o), (o, o), (p.normalized(), p)] {
            #expect(a.adding(b).equals(a.addingVartime(b)))
            #expect(G1Point(a.adding(b)).encoded() == G1Point(a.addingVartime(b)).encoded())
        }
        #expect(p.adding(p).equals(p.doubled()))
        #expect(p.adding(p.negated()).isInfinity)
        #expect(o.doubled().isInfinity, "doubling infinity stays infinity without a branch")
        let s = G2Point<C>.generator.multiplied(by: Array("s".utf8)).p
        let o2 = JacobianPoint<Fp2<C>>.infinity
        for (a, b) in [(s, s), (s, s.negated()), (o2, s), (s, o2), (s.normalized(), s)] {
            #expect(G2Point(a.adding(b)).encoded() == G2Point(a.addingVartime(b)).encoded())
        }
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func pinMultiplesUseTheirBitsOnly(curve: CurveID) {
        switch curve {
        case .bn254cx: checkPIN(BN254CX.self)
        case .bn254: checkPIN(BN254.self)
        }
    }

    func checkPIN<C: PairingCurve>(_: C.Type) {
        let a = MPinEngine<C>.hashToG1(id: Array("pin@example.com".utf8))
        for (factor, bits) in [
            (Int32(0), 14), (1, 14), (9999, 14), (16383, 14), (-3340, 14), (77, 7), (-1, 32),
            (Int32.min, 32), (123_456_789, 32), (5, 0), (5, 1), (0x1F, 4), (0x1F, 5),
        ] {
            let masked = UInt64(UInt32(bitPattern: factor) & (bits >= 32 ? .max : (1 << UInt32(bits)) - 1))
            let expected = a.multipliedVartime(by: Montgomery.bytes((masked, 0, 0, 0)))
            #expect(MPinEngine<C>.pinMultiple(a, factor, bits: bits) == expected, "factor \(factor), \(bits) bits")
        }
        // Out-of-range widths are clamped (no trap): below 0 is no bit, above 32 is 32.
        #expect(MPinEngine<C>.pinMultiple(a, 1234, bits: -5).isInfinity)
        #expect(MPinEngine<C>.pinMultiple(a, -1, bits: 99) == MPinEngine<C>.pinMultiple(a, -1, bits: 32))
    }

    @Test func extractAndRestoreAreInverse() {
        let mpin = MPin(curve: .bn254cx)
        let id = Array("round@example.com".utf8)
        let cs = mpin.clientSecret(masterSecret: Array(repeating: 7, count: 32), hashedID: mpin.hashID(id))!
        for (factor, bits) in [(Int32(1234), 14), (-1, 32), (0, 14), (99, 7), (1, -3), (1, 64)] {
            let token = mpin.extractFactor(id: id, factor: factor, bits: bits, token: cs)!
            #expect(mpin.restoreFactor(id: id, factor: factor, bits: bits, token: token) == cs)
        }
    }

    /// h = 2p - r, the twist's cofactor.
    static func twistCofactor<C: PairingCurve>(_: C.Type) -> Limbs4 { Montgomery.subRaw(plus(C._p, C._p), C._r) }

    /// a / d and a mod d for a small d.
    static func divide(_ a: Limbs4, by d: UInt64) -> (Limbs4, UInt64) {
        var quotient = [UInt64](repeating: 0, count: 4)
        var rest: UInt64 = 0
        for (i, limb) in [a.0, a.1, a.2, a.3].enumerated().reversed() {
            let n = UInt128(rest) << 64 | UInt128(limb)
            quotient[i] = UInt64(n / UInt128(d))
            rest = UInt64(n % UInt128(d))
        }
        return ((quotient[0], quotient[1], quotient[2], quotient[3]), rest)
    }

    /// Miller–Rabin with the first twelve primes as bases, in Montgomery arithmetic modulo n
    /// (odd, below 2^254).
    static func isProbablePrime(_ n: Limbs4) -> Bool {
        var x: UInt64 = 1  // n⁻¹ mod 2^64 by Newton's iteration
        for _ in 0..<6 { x = x &* (2 &- n.0 &* x) }
        let inv = 0 &- x
        var one: Limbs4 = (1, 0, 0, 0)  // R mod n, then R² mod n, by doubling
        for _ in 0..<256 { one = Montgomery.add(one, one, n) }
        var r2 = one
        for _ in 0..<256 { r2 = Montgomery.add(r2, r2, n) }
        let minusOne = Montgomery.sub((0, 0, 0, 0), one, n)
        var d = Montgomery.subRaw(n, (1, 0, 0, 0))
        var s = 0
        while d.0 & 1 == 0 {
            d = (d.0 >> 1 | d.1 << 63, d.1 >> 1 | d.2 << 63, d.2 >> 1 | d.3 << 63, d.3 >> 1)
            s += 1
        }
        for base: UInt64 in [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
            let a = Montgomery.mul((base, 0, 0, 0), r2, n, inv)
            var y = one
            for i in stride(from: Montgomery.bitLength(d) - 1, through: 0, by: -1) {
                y = Montgomery.mul(y, y, n, inv)
                if Montgomery.bit(d, i) == 1 { y = Montgomery.mul(y, a, n, inv) }
            }
            if y == one || y == minusOne { continue }
            var witness = true
            for _ in 0..<max(s - 1, 0) {
                y = Montgomery.mul(y, y, n, inv)
                if y == minusOne {
                    witness = false
                    break
                }
            }
            if witness { return false }
        }
        return true
    }

    /// `G2Point.ordersAreLarge`: the BN254CX twist's cofactor is prime, BN254's is not.
    @Test func twistCofactors() {
        #expect(Self.isProbablePrime(BN254CX._r) && Self.isProbablePrime(BN254._r), "the test itself works")
        #expect(Self.isProbablePrime(Self.twistCofactor(BN254CX.self)) == G2Point<BN254CX>.ordersAreLarge)
        #expect(Self.isProbablePrime(Self.twistCofactor(BN254.self)) == G2Point<BN254>.ordersAreLarge)
        #expect(Self.twistCofactor(BN254CX.self).3 >> 61 != 0, "and above 2^253")
        #expect(Self.divide(Self.twistCofactor(BN254.self), by: 13).1 == 0)
        #expect(!Self.isProbablePrime(Montgomery.subRaw(BN254CX._r, (2, 0, 0, 0))))
    }

    /// The window analysis of `JacobianPoint.multiplied(by:windows:largeOrder:)` and the seven
    /// subtractions of `Montgomery.reduceToMontgomery` need r and p above 2^253.
    @Test func moduliAreAbove2To253() {
        for m in [BN254CX._r, BN254CX._p, BN254._r, BN254._p] { #expect(m.3 >> 61 != 0) }
    }
}
