import CFieldKernel

/// F_p⁴ = F_p²[s]/(s² - ξ), ξ = 1 + i; `Fp4(a, b)` is a + b·s (AMCL `FP4`).
package struct Fp4<C: PairingCurve>: Sendable, Hashable, CustomStringConvertible {
    package var a: Fp2<C>
    package var b: Fp2<C>

    package init(_ a: Fp2<C>, _ b: Fp2<C>) {
        self.a = a
        self.b = b
    }

    #if arch(x86_64)
        /// The kernel's view of the element (the same Montgomery limbs).
        @inline(__always) var kernelValue: mpin_fp4 {
            mpin_fp4(
                a: mpin_fp2(re: mpin_limbs4(l: a.a.v), im: mpin_limbs4(l: a.b.v)),
                b: mpin_fp2(re: mpin_limbs4(l: b.a.v), im: mpin_limbs4(l: b.b.v)))
        }

        @inline(__always) init(_ k: mpin_fp4) {
            a = Fp2(Fp(montgomery: k.a.re.l), Fp(montgomery: k.a.im.l))
            b = Fp2(Fp(montgomery: k.b.re.l), Fp(montgomery: k.b.im.l))
        }
    #endif

    package static var zero: Fp4 { Fp4(.zero, .zero) }
    package static var one: Fp4 { Fp4(.one, .zero) }
    package var isZero: Bool { a.isZero && b.isZero }
    package var isOne: Bool { a.isOne && b.isZero }
    /// y where `mask` is all ones, x where it is zero (no branch).
    @inline(__always) static func select(_ x: Fp4, _ y: Fp4, mask: UInt64) -> Fp4 {
        Fp4(.select(x.a, y.a, mask: mask), .select(x.b, y.b, mask: mask))
    }
    package var description: String { "[\(a), \(b)]" }

    package static func + (x: Fp4, y: Fp4) -> Fp4 { Fp4(x.a + y.a, x.b + y.b) }
    package static func - (x: Fp4, y: Fp4) -> Fp4 { Fp4(x.a - y.a, x.b - y.b) }
    package static prefix func - (x: Fp4) -> Fp4 { Fp4(-x.a, -x.b) }
    package static func += (x: inout Fp4, y: Fp4) { x = x + y }
    package static func -= (x: inout Fp4, y: Fp4) { x = x - y }

    /// (a + bs)(c + ds) = (ac + ξ·bd) + ((a+b)(c+d) - ac - bd)s.
    /// With the x86-64 kernel: the same products with one reduction per coefficient
    /// (``mpin_fp4_mul_adx``: nine 512-bit products, four reductions instead of six).
    package static func * (x: Fp4, y: Fp4) -> Fp4 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp4(mpin_fp4_mul_adx(x.kernelValue, y.kernelValue, mpin_limbs4(l: C._p), C._pInv))
            }
        #endif
        let t0 = x.a * y.a
        let t1 = x.b * y.b
        let t2 = (x.a + x.b) * (y.a + y.b)
        return Fp4(t0 + t1.mulByXi(), t2 - t0 - t1)
    }

    /// Multiplication by an element of F_p² (AMCL `FP4_pmul`).
    package func scaled(by k: Fp2<C>) -> Fp4 { Fp4(a * k, b * k) }

    /// (a + bs)² = (a² + ξb²) + 2ab·s.
    /// With the kernel: ``mpin_fp4_sqr_adx`` (six 512-bit products, four reductions).
    package func squared() -> Fp4 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp4(mpin_fp4_sqr_adx(kernelValue, mpin_limbs4(l: C._p), C._pInv))
            }
        #endif
        let t0 = a.squared()
        let t1 = b.squared()
        let t2 = (a + b).squared()
        return Fp4(t0 + t1.mulByXi(), t2 - t0 - t1)
    }

    package func doubled() -> Fp4 { Fp4(a.doubled(), b.doubled()) }
    /// a - b·s (AMCL `FP4_conj`).
    package func conjugate() -> Fp4 { Fp4(a, -b) }
    /// -a + b·s (AMCL `FP4_nconj`).
    package func negatedConjugate() -> Fp4 { Fp4(-a, b) }
    /// Multiplication by s (AMCL `FP4_times_i`): (a + bs)s = ξb + a·s.
    package func mulByS() -> Fp4 { Fp4(b.mulByXi(), a) }

    /// (a - bs) / (a² - ξb²); nil for zero.
    package func inverse() -> Fp4? {
        guard let n = (a.squared() - b.squared().mulByXi()).inverse() else { return nil }
        return Fp4(a * n, -(b * n))
    }
    var inverseOrZero: Fp4 {
        let n = (a.squared() - b.squared().mulByXi()).inverseOrZero
        return Fp4(a * n, -(b * n))
    }

    /// x^e, e big-endian; branches on the bits of e (for public exponents).
    package func power(_ exponent: [UInt8]) -> Fp4 {
        var result = Fp4.one
        for byte in exponent {
            for j in stride(from: 7, through: 0, by: -1) {
                result = result.squared()
                if (byte >> UInt8(j)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// x^p (AMCL `FP4_frob` with the Frobenius constant X): conjugate both halves, scale b by X³.
    /// s^p = s·ξ^((p-1)/2) = s·X³.
    package func frobenius() -> Fp4 {
        Fp4(a.conjugate(), b.conjugate() * Fp2<C>(C._frob3))
    }

    package static func == (x: Fp4, y: Fp4) -> Bool { x.a == y.a && x.b == y.b }
}
