import CFieldKernel

/// F_p¹² = F_p⁴[w]/(w³ - s); `Fp12(a, b, c)` is a + b·w + c·w² (AMCL `FP12`).
///
/// Equivalently F_p²[w]/(w⁶ - ξ): the coefficient of wᵏ sits at a.a (w⁰), b.a (w¹), c.a (w²),
/// a.b (w³), b.b (w⁴), c.b (w⁵) (docs/crypto.md §2.2). GT, the target group of the pairing, is the
/// subgroup of order r of the unitary elements.
package struct Fp12<C: PairingCurve>: Sendable, Hashable, CustomStringConvertible {
    package var a: Fp4<C>
    package var b: Fp4<C>
    package var c: Fp4<C>

    package init(_ a: Fp4<C>, _ b: Fp4<C>, _ c: Fp4<C>) {
        self.a = a
        self.b = b
        self.c = c
    }

    package static var zero: Fp12 { Fp12(.zero, .zero, .zero) }
    package static var one: Fp12 { Fp12(.one, .zero, .zero) }
    package var isZero: Bool { a.isZero && b.isZero && c.isZero }
    package var isOne: Bool { a.isOne && b.isZero && c.isZero }
    /// All ones when the element is 1, else zero (no branch; ``isOne`` may short-circuit).
    var oneMask: UInt64 {
        Montgomery.equalMask(a.a.a.v, C._pOne) & a.a.b.zeroMask & a.b.zeroMask & b.a.zeroMask
            & b.b.zeroMask & c.a.zeroMask & c.b.zeroMask
    }
    /// y where `mask` is all ones, x where it is zero (no branch).
    @inline(__always) static func select(_ x: Fp12, _ y: Fp12, mask: UInt64) -> Fp12 {
        Fp12(.select(x.a, y.a, mask: mask), .select(x.b, y.b, mask: mask), .select(x.c, y.c, mask: mask))
    }
    package var description: String { "[\(a), \(b), \(c)]" }

    /// The twelve F_p coefficients in AMCL's encoding order (a.a.a, a.a.b, a.b.a, ..., c.b.b).
    var coefficients: [Fp<C>] {
        [a.a.a, a.a.b, a.b.a, a.b.b, b.a.a, b.a.b, b.b.a, b.b.b, c.a.a, c.a.b, c.b.a, c.b.b]
    }

    /// The 384-byte AMCL encoding (`FP12_toOctet`): twelve 32-byte big-endian integers, i.e. the
    /// F_p² coefficients of w⁰, w³, w¹, w⁴, w², w⁵, each (re, im).
    package var bytes: [UInt8] { coefficients.flatMap(\.bytes) }

    /// Reads the 384-byte encoding; nil on a wrong length or a coefficient >= p.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 384 else { return nil }
        var f: [Fp<C>] = []
        f.reserveCapacity(12)
        for i in 0..<12 {
            guard let x = Fp<C>(bytes: Array(bytes[i * 32..<(i + 1) * 32])) else { return nil }
            f.append(x)
        }
        self.init(
            Fp4(Fp2(f[0], f[1]), Fp2(f[2], f[3])),
            Fp4(Fp2(f[4], f[5]), Fp2(f[6], f[7])),
            Fp4(Fp2(f[8], f[9]), Fp2(f[10], f[11])))
    }

    package static func + (x: Fp12, y: Fp12) -> Fp12 { Fp12(x.a + y.a, x.b + y.b, x.c + y.c) }
    package static func - (x: Fp12, y: Fp12) -> Fp12 { Fp12(x.a - y.a, x.b - y.b, x.c - y.c) }
    package static prefix func - (x: Fp12) -> Fp12 { Fp12(-x.a, -x.b, -x.c) }

    #if arch(x86_64)
        /// The kernel's view of the element (the same Montgomery limbs).
        @inline(__always) var kernelValue: mpin_fp12 { mpin_fp12(a: a.kernelValue, b: b.kernelValue, c: c.kernelValue) }

        @inline(__always) init(_ k: mpin_fp12) { self.init(Fp4(k.a), Fp4(k.b), Fp4(k.c)) }
    #endif

    /// Karatsuba over the cubic extension: six F_p⁴ multiplications (with the kernel, the whole
    /// product in C, ``mpin_fp12_mul_adx``).
    package static func * (x: Fp12, y: Fp12) -> Fp12 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp12(mpin_fp12_mul_adx(x.kernelValue, y.kernelValue, mpin_limbs4(l: C._p), C._pInv))
            }
        #endif
        let z0 = x.a * y.a
        var z2 = x.b * y.b
        let z1 = (x.a + x.b) * (y.a + y.b) - z0 - z2
        var z3 = (x.b + x.c) * (y.b + y.c) - z2
        z2 = z2 + (x.a + x.c) * (y.a + y.c) - z0
        let t0 = x.c * y.c
        z2 = z2 - t0
        z3 = z3 - t0
        return Fp12(z0 + z3.mulByS(), z1 + t0.mulByS(), z2)
    }
    package static func *= (x: inout Fp12, y: Fp12) { x = x * y }

    /// Multiplication by a line value l0 + l1·w + l3·w³ (l0, l1, l3 ∈ F_p²), i.e. the sparse element
    /// (a: (l0, l3), b: (l1, 0), c: 0): thirteen F_p² multiplications (with the kernel, in C,
    /// ``mpin_fp12_mul_line_adx``).
    func multipliedByLine(_ l0: Fp2<C>, _ l1: Fp2<C>, _ l3: Fp2<C>) -> Fp12 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp12(
                    mpin_fp12_mul_line_adx(
                        kernelValue, l0.kernelValue, l1.kernelValue, l3.kernelValue, mpin_limbs4(l: C._p), C._pInv))
            }
        #endif
        let la = Fp4(l0, l3)
        let z0 = a * la
        let z1 = b.scaled(by: l1)
        let bb = (a + b) * Fp4(l0 + l1, l3) - z0 - z1
        let cc = c * la + z1
        let aa = z0 + c.scaled(by: l1).mulByS()
        return Fp12(aa, bb, cc)
    }

    /// Chung–Hasan squaring (AMCL `FP12_sqr`; with the kernel, in C, ``mpin_fp12_sqr_adx``).
    package func squared() -> Fp12 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp12(mpin_fp12_sqr_adx(kernelValue, mpin_limbs4(l: C._p), C._pInv))
            }
        #endif
        let sa = a.squared()
        let bc = b * c
        let sb = bc.doubled()
        let sc = c.squared()
        let ab = a * b
        let sd = ab.doubled()
        let t = (a + b + c).squared()
        return Fp12(sa + sb.mulByS(), sd + sc.mulByS(), t - (sa + sb + sc + sd))
    }

    /// Granger–Scott squaring for unitary elements, x^(p⁶+1) = 1 (AMCL `FP12_usqr`; with the kernel,
    /// ``mpin_fp12_cyclotomic_sqr_adx``):
    /// a' = 3a² - 2·conj(a), b' = 3s·c² + 2·conj(b), c' = 3b² - 2·conj(c).
    package func unitarySquared() -> Fp12 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp12(mpin_fp12_cyclotomic_sqr_adx(kernelValue, mpin_limbs4(l: C._p), C._pInv))
            }
        #endif
        let a2 = a.squared()
        let na = a2 + a2 + a2 - a.conjugate().doubled()
        let c2 = c.squared().mulByS()
        let nb = c2 + c2 + c2 + b.conjugate().doubled()
        let b2 = b.squared()
        let nc = b2 + b2 + b2 - c.conjugate().doubled()
        return Fp12(na, nb, nc)
    }

    /// x^(p⁶): negates the odd powers of w (AMCL `FP12_conj`). The inverse of a unitary element.
    package func conjugate() -> Fp12 { Fp12(a.conjugate(), -b.conjugate(), c.conjugate()) }

    /// x^p: conjugate every F_p² coefficient, multiply the coefficient of wᵏ by Xᵏ (w^p = X·w).
    package func frobenius() -> Fp12 {
        let x1 = Fp2<C>(C._frob1), x2 = Fp2<C>(C._frob2), x3 = Fp2<C>(C._frob3)
        let x4 = Fp2<C>(C._frob4), x5 = Fp2<C>(C._frob5)
        return Fp12(
            Fp4(a.a.conjugate(), a.b.conjugate() * x3),
            Fp4(b.a.conjugate() * x1, b.b.conjugate() * x4),
            Fp4(c.a.conjugate() * x2, c.b.conjugate() * x5))
    }

    /// The inverse over the cubic extension; nil for zero (which branches on x: public values).
    package func inverse() -> Fp12? {
        if isZero { return nil }
        return inverseOrZero
    }

    var inverseOrZero: Fp12 {
        let f0 = a.squared() - (b * c).mulByS()
        let f1 = c.squared().mulByS() - a * b
        let f2 = b.squared() - a * c
        let n = a * f0 + (b * f2 + c * f1).mulByS()
        let ni = n.inverseOrZero
        return Fp12(f0 * ni, f1 * ni, f2 * ni)
    }

    /// x^e, e big-endian of any length (general square and multiply); branches on the bits of e, for
    /// public exponents.
    package func power(_ exponent: [UInt8]) -> Fp12 {
        var result = Fp12.one
        for byte in exponent {
            for j in stride(from: 7, through: 0, by: -1) {
                result = result.squared()
                if (byte >> UInt8(j)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// x^e for a unitary x (cyclotomic squarings), e big-endian: its last 32 bytes, as a 256-bit
    /// integer. Constant time in x and e (``unitaryPower(limbs:bits:)``).
    package func unitaryPower(_ exponent: [UInt8]) -> Fp12 {
        unitaryPower(limbs: Montgomery.limbs(bigEndian: exponent.suffix(32)[...]))
    }

    /// x^e for x known to be in GT (a pairing's value, or a product or power of such values), e
    /// big-endian (its last 32 bytes, as for ``unitaryPower(_:)``): GLS on GT without
    /// ``unitaryPower(_:)``'s membership test, which costs about 29% of the power and is there for
    /// elements read from bytes. Constant time in x and e. On an element outside GT the result is
    /// wrong: callers that cannot vouch for their input use ``unitaryPower(_:)``.
    package func powerInGT(_ exponent: [UInt8]) -> Fp12 {
        GTExponentiation.glsPower(self, Montgomery.limbs(bigEndian: exponent.suffix(32)[...]))
    }

    /// x^e for a unitary x and e < 2^bits (`bits` public), in constant time in x and e, bit-exact
    /// with square and multiply (``GTExponentiation``): GLS when `bits` is large and x is in GT,
    /// plain fixed 4-bit windows otherwise (PIN-sized exponents, elements outside GT).
    func unitaryPower(limbs e: Limbs4, bits: Int = 256) -> Fp12 {
        GTExponentiation.power(self, e, bits: bits)
    }

    /// x^|u| for a unitary x (the curve parameter, 64 bits, public): left to right over the
    /// non-adjacent form of |u|, a digit -1 multiplying by x⁻¹ = conj(x) (x is unitary). For
    /// BN254CX, |u| = 0x4000000003c012b1 has 11 bits set and 9 non-zero NAF digits: two Fp12
    /// multiplications fewer per power (three powers per final exponentiation). Branches on the
    /// digits of u only (public).
    func unitaryPowerAbsU() -> Fp12 {
        let digits = Self.nonAdjacentForm(C._absU)
        let inverse = conjugate()
        var result = self
        var i = digits.count - 2
        while i >= 0 {
            result = result.unitarySquared()
            if digits[i] == 1 { result = result * self } else if digits[i] == -1 { result = result * inverse }
            i -= 1
        }
        return result
    }

    /// The non-adjacent form of n > 0, least significant digit first (digits in {-1, 0, 1}, no two
    /// adjacent non-zero, the most significant 1).
    static func nonAdjacentForm(_ n: UInt64) -> [Int8] {
        var digits: [Int8] = []
        var k = UInt128(n)
        while k > 0 {
            if k & 1 == 1 {
                let digit: Int8 = k & 3 == 1 ? 1 : -1
                k = digit == 1 ? k - 1 : k + 1
                digits.append(digit)
            } else {
                digits.append(0)
            }
            k >>= 1
        }
        return digits
    }

    /// AMCL's FP4 trace of a unitary element, Tr(x) = 3·x.a (`FP12_trace`).
    package var trace: Fp4<C> { a + a + a }

    package static func == (x: Fp12, y: Fp12) -> Bool { x.a == y.a && x.b == y.b && x.c == y.c }
}
