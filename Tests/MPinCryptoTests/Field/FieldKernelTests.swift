import CFieldKernel
import TestSupport
import Testing

@testable import MPinCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// The x86-64 kernel (CFieldKernel) against the portable Swift path, operation by operation, on
/// random and edge operands for both curves' p and r. The GMP cross-checks (GMPOracleTests) and the
/// AMCL vectors run on whichever path the processor selects; `make test` runs this package's crypto
/// suites a second time with MPIN_FIELD_KERNEL=portable, so both paths meet GMP and the vectors.
struct FieldKernelTests {
    /// Whether the kernel can run on this processor (whatever MPIN_FIELD_KERNEL says).
    static let kernelRuns = mpin_field_kernel_cpu_supported() != 0

    /// The multiplication uses the kernel exactly when the processor has it and
    /// MPIN_FIELD_KERNEL=portable is not set.
    @Test func selectionFollowsProcessorAndEnvironment() {
        let forcedPortable = getenv("MPIN_FIELD_KERNEL").map { String(cString: $0) == "portable" } ?? false
        #expect(Montgomery.usesKernel == (Self.kernelRuns && !forcedPortable))
    }

    /// Operands below m: random ones, then 0, 1, 2, m - 1, m - 2, R mod m and values with every limb
    /// at its extremes (reduced).
    static func operands(_ m: Limbs4, _ one: Limbs4, seed: UInt64) -> [Limbs4] {
        var rng = SplitMix64(seed: seed)
        var out: [Limbs4] = [
            (0, 0, 0, 0), (1, 0, 0, 0), (2, 0, 0, 0), Montgomery.subRaw(m, (1, 0, 0, 0)),
            Montgomery.subRaw(m, (2, 0, 0, 0)), one,
            Montgomery.subRaw(m, (0, 0, 0, 1)), (UInt64.max, UInt64.max, UInt64.max, 0),
        ]
        for _ in 0..<400 {
            let x: Limbs4 = (rng.next(), rng.next(), rng.next(), rng.next() >> 2)
            out.append(x)
        }
        // Reduce everything below m (each is below 4m).
        return out.map { x in
            var y = x
            for _ in 0..<4 { y = Montgomery.reduceOnce(y, m) }
            return y
        }
    }

    static func same(_ a: Limbs4, _ b: Limbs4) -> Bool { Montgomery.equal(a, b) }

    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"), arguments: [CurveID.bn254cx, .bn254])
    func montgomeryMultiplicationAgrees(curve: CurveID) throws {
        #if arch(x86_64)
            let moduli: [(Limbs4, UInt64, Limbs4)] =
                curve == .bn254cx
                ? [(BN254CX._p, BN254CX._pInv, BN254CX._pOne), (BN254CX._r, BN254CX._rInv, BN254CX._rOne)]
                : [(BN254._p, BN254._pInv, BN254._pOne), (BN254._r, BN254._rInv, BN254._rOne)]
            for (m, inv, one) in moduli {
                let xs = Self.operands(m, one, seed: 11)
                let ys = Self.operands(m, one, seed: 12)
                for (x, y) in Array(zip(xs, ys)) + Array(zip(xs, xs.reversed())) {
                    let kernel = mpin_mont_mul_adx(mpin_limbs4(l: x), mpin_limbs4(l: y), mpin_limbs4(l: m), inv).l
                    #expect(Self.same(kernel, Montgomery.mulPortable(x, y, m, inv)), "mul \(x) \(y)")
                    let add = mpin_add_mod(mpin_limbs4(l: x), mpin_limbs4(l: y), mpin_limbs4(l: m)).l
                    #expect(Self.same(add, Montgomery.add(x, y, m)))
                    let sub = mpin_sub_mod(mpin_limbs4(l: x), mpin_limbs4(l: y), mpin_limbs4(l: m)).l
                    #expect(Self.same(sub, Montgomery.sub(x, y, m)))
                }
            }
        #endif
    }

    /// x^(m-2) on the portable multiplication alone (square and multiply over the public exponent).
    static func fermatInverse(_ x: Limbs4, _ m: Limbs4, _ inv: UInt64, _ one: Limbs4) -> Limbs4 {
        let e = Montgomery.subRaw(m, (2, 0, 0, 0))
        var result = one
        for i in stride(from: 255, through: 0, by: -1) {
            result = Montgomery.mulPortable(result, result, m, inv)
            if Montgomery.bit(e, i) == 1 { result = Montgomery.mulPortable(result, x, m, inv) }
        }
        return result
    }

    /// The kernel's divsteps inversion is x^(m-2) of the portable path, 0 for 0, on both curves'
    /// p and r (any prime below 2^254 with its R²), and x·x⁻¹ = 1 (R mod m) otherwise.
    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"), arguments: [CurveID.bn254cx, .bn254])
    func inversionAgrees(curve: CurveID) throws {
        #if arch(x86_64)
            let moduli: [(Limbs4, UInt64, Limbs4, Limbs4)] =
                curve == .bn254cx
                ? [
                    (BN254CX._p, BN254CX._pInv, BN254CX._pOne, BN254CX._pR2),
                    (BN254CX._r, BN254CX._rInv, BN254CX._rOne, BN254CX._rR2),
                ]
                : [(BN254._p, BN254._pInv, BN254._pOne, BN254._pR2), (BN254._r, BN254._rInv, BN254._rOne, BN254._rR2)]
            for (m, inv, one, r2) in moduli {
                for x in Self.operands(m, one, seed: 31).prefix(120) {
                    let kernel = mpin_fp_inverse_adx(mpin_limbs4(l: x), mpin_limbs4(l: m), inv, mpin_limbs4(l: r2)).l
                    #expect(Self.same(kernel, Self.fermatInverse(x, m, inv, one)), "inverse \(x)")
                    let product = Montgomery.mulPortable(x, kernel, m, inv)
                    #expect(Self.same(product, Montgomery.isZero(x) ? (0, 0, 0, 0) : one), "x·x⁻¹ \(x)")
                }
            }
        #endif
    }

    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"), arguments: [CurveID.bn254cx, .bn254])
    func quadraticExtensionAgrees(curve: CurveID) throws {
        #if arch(x86_64)
            let (m, inv, one) =
                curve == .bn254cx ? (BN254CX._p, BN254CX._pInv, BN254CX._pOne) : (BN254._p, BN254._pInv, BN254._pOne)
            let xs = Self.operands(m, one, seed: 21)
            let ys = Self.operands(m, one, seed: 22)
            let n = xs.count
            for i in 0..<n {
                let a0 = xs[i], a1 = ys[(i * 7) % n], b0 = ys[i], b1 = xs[(i * 13 + 5) % n]
                let kernel = mpin_fp2_mul_adx(
                    mpin_limbs4(l: a0), mpin_limbs4(l: a1), mpin_limbs4(l: b0), mpin_limbs4(l: b1),
                    mpin_limbs4(l: m), inv)
                let (re, im) = Montgomery.mulFp2(a0, a1, b0, b1, m, inv)
                #expect(Self.same(kernel.re.l, re) && Self.same(kernel.im.l, im), "fp2 mul at \(i)")
                // Schoolbook with the portable multiplication: (a0b0 - a1b1) + (a0b1 + a1b0)i.
                let p00 = Montgomery.mulPortable(a0, b0, m, inv), p11 = Montgomery.mulPortable(a1, b1, m, inv)
                let p01 = Montgomery.mulPortable(a0, b1, m, inv), p10 = Montgomery.mulPortable(a1, b0, m, inv)
                #expect(Self.same(re, Montgomery.sub(p00, p11, m)) && Self.same(im, Montgomery.add(p01, p10, m)))
                let square = mpin_fp2_sqr_adx(mpin_limbs4(l: a0), mpin_limbs4(l: a1), mpin_limbs4(l: m), inv)
                let s00 = Montgomery.mulPortable(a0, a0, m, inv), s11 = Montgomery.mulPortable(a1, a1, m, inv)
                let s01 = Montgomery.mulPortable(a0, a1, m, inv)
                #expect(
                    Self.same(square.re.l, Montgomery.sub(s00, s11, m))
                        && Self.same(square.im.l, Montgomery.add(s01, s01, m)),
                    "fp2 square at \(i)")
            }
        #endif
    }

    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"))
    func wideProductAndReductionAgree() throws {
        #if arch(x86_64)
            let m = BN254CX._p, inv = BN254CX._pInv
            let xs = Self.operands(m, BN254CX._pOne, seed: 31)
            for (i, x) in xs.enumerated() {
                let y = xs[(i * 5 + 3) % xs.count]
                let wide = mpin_mul_wide_adx(mpin_limbs4(l: x), mpin_limbs4(l: y)).l
                let (lo, hi) = Montgomery.mulWide(x, y)
                #expect(
                    Self.same((wide.0, wide.1, wide.2, wide.3), lo) && Self.same((wide.4, wide.5, wide.6, wide.7), hi))
                let reduced = mpin_redc_adx(mpin_limbs8(l: wide), mpin_limbs4(l: m), inv).l
                #expect(Self.same(reduced, Montgomery.reduceWide(lo, hi, m, inv)))
            }
        #endif
    }

    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"), arguments: [CurveID.bn254cx, .bn254])
    func quarticExtensionAgrees(curve: CurveID) throws {
        #if arch(x86_64)
            let (m, inv, one) =
                curve == .bn254cx ? (BN254CX._p, BN254CX._pInv, BN254CX._pOne) : (BN254._p, BN254._pInv, BN254._pOne)
            let xs = Self.operands(m, one, seed: 41)
            let n = xs.count
            typealias P2 = (Limbs4, Limbs4)
            func mul2(_ x: P2, _ y: P2) -> P2 { Montgomery.mulFp2(x.0, x.1, y.0, y.1, m, inv) }
            func add2(_ x: P2, _ y: P2) -> P2 { (Montgomery.add(x.0, y.0, m), Montgomery.add(x.1, y.1, m)) }
            func sub2(_ x: P2, _ y: P2) -> P2 { (Montgomery.sub(x.0, y.0, m), Montgomery.sub(x.1, y.1, m)) }
            func xi(_ x: P2) -> P2 { (Montgomery.sub(x.0, x.1, m), Montgomery.add(x.0, x.1, m)) }
            func k4(_ a: P2, _ b: P2) -> mpin_fp4 {
                mpin_fp4(
                    a: mpin_fp2(re: mpin_limbs4(l: a.0), im: mpin_limbs4(l: a.1)),
                    b: mpin_fp2(re: mpin_limbs4(l: b.0), im: mpin_limbs4(l: b.1)))
            }
            for i in 0..<n {
                let xa = (xs[i], xs[(i + 1) % n]), xb = (xs[(i * 3 + 2) % n], xs[(i * 5 + 7) % n])
                let ya = (xs[(i * 11 + 3) % n], xs[(n - 1 - i)]), yb = (xs[(i * 7) % n], xs[(i + 9) % n])
                // Portable: (a + bs)(c + ds) = (ac + ξbd) + ((a + b)(c + d) - ac - bd)s.
                let t0 = mul2(xa, ya), t1 = mul2(xb, yb), t2 = mul2(add2(xa, xb), add2(ya, yb))
                let ea = add2(t0, xi(t1)), eb = sub2(sub2(t2, t0), t1)
                let r = mpin_fp4_mul_adx(k4(xa, xb), k4(ya, yb), mpin_limbs4(l: m), inv)
                #expect(
                    Self.same(r.a.re.l, ea.0) && Self.same(r.a.im.l, ea.1) && Self.same(r.b.re.l, eb.0)
                        && Self.same(r.b.im.l, eb.1), "fp4 mul at \(i)")
                let s0 = mul2(xa, xa), s1 = mul2(xb, xb), sab = mul2(xa, xb)
                let qa = add2(s0, xi(s1)), qb = add2(sab, sab)
                let q = mpin_fp4_sqr_adx(k4(xa, xb), mpin_limbs4(l: m), inv)
                #expect(
                    Self.same(q.a.re.l, qa.0) && Self.same(q.a.im.l, qa.1) && Self.same(q.b.re.l, qb.0)
                        && Self.same(q.b.im.l, qb.1), "fp4 square at \(i)")
            }
        #endif
    }

    /// The cyclotomic squaring of the kernel is the portable Granger–Scott formula, on unitary
    /// elements (pairing values) and on arbitrary ones (the formula, not the maths, is what must agree).
    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"))
    func cyclotomicSquaringAgrees() throws {
        #if arch(x86_64)
            typealias C = BN254CX
            var rng = SplitMix64(seed: 51)
            func fp4() -> Fp4<C> {
                Fp4(
                    Fp2(Fp(reducing: rng.bytes(32)), Fp(reducing: rng.bytes(32))),
                    Fp2(Fp(reducing: rng.bytes(32)), Fp(reducing: rng.bytes(32))))
            }
            let g = Pairing<C>.pair(G2Point<C>.generator, G1Point<C>.generator)
            var elements = [g, g.unitarySquared(), Fp12<C>.one]
            for _ in 0..<20 { elements.append(Fp12(fp4(), fp4(), fp4())) }
            for x in elements {
                // Portable: a' = 3a² - 2conj(a), b' = 3s·c² + 2conj(b), c' = 3b² - 2conj(c), from the portable Fp4 ops.
                func sq(_ y: Fp4<C>) -> Fp4<C> {
                    let t0 = Fp2<C>(Montgomery.mulFp2(y.a.a.v, y.a.b.v, y.a.a.v, y.a.b.v, C._p, C._pInv))
                    let t1 = Fp2<C>(Montgomery.mulFp2(y.b.a.v, y.b.b.v, y.b.a.v, y.b.b.v, C._p, C._pInv))
                    let ab = Fp2<C>(Montgomery.mulFp2(y.a.a.v, y.a.b.v, y.b.a.v, y.b.b.v, C._p, C._pInv))
                    return Fp4(t0 + t1.mulByXi(), ab + ab)
                }
                let a2 = sq(x.a), b2 = sq(x.b), c2 = sq(x.c).mulByS()
                let expected = Fp12(
                    a2 + a2 + a2 - x.a.conjugate().doubled(), c2 + c2 + c2 + x.b.conjugate().doubled(),
                    b2 + b2 + b2 - x.c.conjugate().doubled())
                #expect(x.unitarySquared() == expected)
            }
        #endif
    }
}
