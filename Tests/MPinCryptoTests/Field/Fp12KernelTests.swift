import CFieldKernel
import Testing

@testable import MPinCrypto

/// The kernel's F_p¹² operations and Miller-loop steps (CFieldKernel's Fp12Kernel.c) against
/// independent computations: the products against schoolbook multiplication over F_p² with
/// w⁶ = ξ on the portable Montgomery arithmetic, the steps' points against affine arithmetic on the
/// twist and their lines against the portable formulas. The pairing vectors then run on both paths
/// (`make test` runs the crypto suites again with MPIN_FIELD_KERNEL=portable).
struct Fp12KernelTests {
    typealias C = BN254CX
    typealias P2 = (Limbs4, Limbs4)

    static var kernelRuns: Bool { FieldKernelTests.kernelRuns }

    static func random(_ rng: inout SplitMix64) -> Fp2<C> {
        Fp2(Fp(reducing: rng.bytes(32)), Fp(reducing: rng.bytes(32)))
    }

    static func random12(_ rng: inout SplitMix64) -> Fp12<C> {
        Fp12(
            Fp4(random(&rng), random(&rng)), Fp4(random(&rng), random(&rng)), Fp4(random(&rng), random(&rng)))
    }

    /// The six F_p² coefficients of w⁰ ... w⁵ (Fp12's documented layout).
    static func powersOfW(_ x: Fp12<C>) -> [P2] {
        [x.a.a, x.b.a, x.c.a, x.a.b, x.b.b, x.c.b].map { ($0.a.v, $0.b.v) }
    }

    static func fromPowersOfW(_ k: [P2]) -> Fp12<C> {
        func f(_ p: P2) -> Fp2<C> { Fp2(p) }
        return Fp12(Fp4(f(k[0]), f(k[3])), Fp4(f(k[1]), f(k[4])), Fp4(f(k[2]), f(k[5])))
    }

    /// x·y by schoolbook over F_p²[w]/(w⁶ - ξ), with the portable F_p² multiplication.
    static func schoolbook(_ x: Fp12<C>, _ y: Fp12<C>) -> Fp12<C> {
        let m = C._p, inv = C._pInv
        let xs = powersOfW(x), ys = powersOfW(y)
        var acc = [P2](repeating: ((0, 0, 0, 0), (0, 0, 0, 0)), count: 11)
        for i in 0..<6 {
            for j in 0..<6 {
                let t = Montgomery.mulFp2(xs[i].0, xs[i].1, ys[j].0, ys[j].1, m, inv)
                acc[i + j] = (Montgomery.add(acc[i + j].0, t.0, m), Montgomery.add(acc[i + j].1, t.1, m))
            }
        }
        var out = Array(acc[0..<6])
        for k in 6..<11 {
            // w^k = ξ·w^(k-6), ξ·(a + bi) = (a - b) + (a + b)i.
            let xi = (Montgomery.sub(acc[k].0, acc[k].1, m), Montgomery.add(acc[k].0, acc[k].1, m))
            out[k - 6] = (Montgomery.add(out[k - 6].0, xi.0, m), Montgomery.add(out[k - 6].1, xi.1, m))
        }
        return fromPowersOfW(out)
    }

    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"))
    func productsAgreeWithSchoolbook() throws {
        #if arch(x86_64)
            var rng = SplitMix64(seed: 61)
            let g = Pairing<C>.pair(G2Point<C>.generator, G1Point<C>.generator)
            var elements = [g, Fp12<C>.one, Fp12<C>.zero]
            for _ in 0..<24 { elements.append(Self.random12(&rng)) }
            let m = mpin_limbs4(l: C._p), inv = C._pInv
            for (i, x) in elements.enumerated() {
                let y = elements[(i * 7 + 3) % elements.count]
                let product = Fp12<C>(mpin_fp12_mul_adx(x.kernelValue, y.kernelValue, m, inv))
                #expect(product == Self.schoolbook(x, y), "product at \(i)")
                let square = Fp12<C>(mpin_fp12_sqr_adx(x.kernelValue, m, inv))
                #expect(square == Self.schoolbook(x, x), "square at \(i)")
                let l0 = Self.random(&rng), l1 = Self.random(&rng), l3 = Self.random(&rng)
                let line = Fp12<C>(Fp4(l0, l3), Fp4(l1, .zero), .zero)
                let sparse = Fp12<C>(
                    mpin_fp12_mul_line_adx(x.kernelValue, l0.kernelValue, l1.kernelValue, l3.kernelValue, m, inv))
                #expect(sparse == Self.schoolbook(x, line), "line product at \(i)")
            }
        #endif
    }

    /// T = (x·z, y·z, z) for an affine twist point (x, y) and z ≠ 0 (homogeneous projective).
    static func projective(_ q: G2Point<C>, _ z: Fp2<C>) -> (Fp2<C>, Fp2<C>, Fp2<C>) {
        let (x, y) = q.affine!
        return (x * z, y * z, z)
    }

    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"))
    func millerStepsAgree() throws {
        #if arch(x86_64)
            var rng = SplitMix64(seed: 62)
            let m = mpin_limbs4(l: C._p), inv = C._pInv
            var q = G2Point<C>.generator
            for i in 0..<12 {
                let r = G2Point<C>.generator.multiplied(by: rng.bytes(32))
                let z = Self.random(&rng)
                let (x, y, zz) = Self.projective(q, z)
                // Doubling: the point is 2T, the line the portable formula's (H, -3X², B - E).
                let d = mpin_miller_double_adx(x.kernelValue, y.kernelValue, zz.kernelValue, m, inv)
                let (dx, dy) = q.doubled().affine!
                let dz = Fp2<C>(d.z).inverse()!
                #expect(Fp2<C>(d.x) * dz == dx && Fp2<C>(d.y) * dz == dy, "double's point at \(i)")
                let bb = y.squared(), cc = zz.squared()
                let e = (cc + cc + cc) * G2Point<C>.b
                let xx = x.squared()
                #expect(Fp2<C>(d.la) == (y + zz).squared() - bb - cc, "tangent a at \(i)")
                #expect(Fp2<C>(d.lb) == -(xx + xx + xx), "tangent b at \(i)")
                #expect(Fp2<C>(d.lc) == bb - e, "tangent c at \(i)")
                // Addition of an affine R: the point is T + R, the line (λ, -θ, θ·rx - λ·ry).
                let (rx, ry) = r.affine!
                let s = mpin_miller_add_adx(
                    x.kernelValue, y.kernelValue, zz.kernelValue, rx.kernelValue, ry.kernelValue, m, inv)
                let (sx, sy) = (q + r).affine!
                let sz = Fp2<C>(s.z).inverse()!
                #expect(Fp2<C>(s.x) * sz == sx && Fp2<C>(s.y) * sz == sy, "add's point at \(i)")
                let theta = y - ry * zz, lambda = x - rx * zz
                #expect(Fp2<C>(s.la) == lambda && Fp2<C>(s.lb) == -theta, "chord a, b at \(i)")
                #expect(Fp2<C>(s.lc) == theta * rx - lambda * ry, "chord c at \(i)")
                q = q + r
            }
        #endif
    }

    /// The kernel's constant-time table read returns exactly the entry of the digit, for every digit:
    /// the one the processor gets, the SSE2 variant, and the AVX2 one where cpuid reports AVX2.
    @Test(.enabled(if: Self.kernelRuns, "the processor has no BMI2/ADX"))
    func tableSelectionReturnsTheDigitsEntry() throws {
        #if arch(x86_64)
            var rng = SplitMix64(seed: 63)
            let table = (0..<16).map { _ in Self.random12(&rng) }
            typealias Select = (UnsafePointer<mpin_fp12>, UInt64) -> mpin_fp12
            var variants: [(String, Select)] = [("chosen", mpin_fp12_select16), ("SSE2", mpin_fp12_select16_sse2)]
            if mpin_field_kernel_avx2_available() != 0 { variants.append(("AVX2", mpin_fp12_select16_avx2)) }
            for (name, select) in variants {
                for digit in 0..<16 {
                    let selected = table.withUnsafeBufferPointer { buffer in
                        UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: mpin_fp12.self, capacity: 16) {
                            Fp12<C>(select($0, UInt64(digit)))
                        }
                    }
                    #expect(selected == table[digit], "\(name): digit \(digit)")
                }
            }
        #endif
    }
}
