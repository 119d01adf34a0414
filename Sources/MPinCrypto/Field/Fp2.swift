import CFieldKernel

/// F_p² = F_p[i]/(i² + 1); `Fp2(a, b)` is a + b·i (AMCL `FP2`).
///
/// As for ``Fp``: the arithmetic is constant time; comparisons, ``power(_:)`` and
/// ``squareRoot()`` branch on their values and are for public data.
package struct Fp2<C: PairingCurve>: Sendable, Hashable, CustomStringConvertible {
    package var a: Fp<C>
    package var b: Fp<C>

    package init(_ a: Fp<C>, _ b: Fp<C>) {
        self.a = a
        self.b = b
    }
    init(_ limbs: (Limbs4, Limbs4)) {
        a = Fp(montgomery: limbs.0)
        b = Fp(montgomery: limbs.1)
    }
    #if arch(x86_64)
        /// The kernel's view of the element (the same Montgomery limbs).
        @inline(__always) var kernelValue: mpin_fp2 { mpin_fp2(re: mpin_limbs4(l: a.v), im: mpin_limbs4(l: b.v)) }

        @inline(__always) init(_ k: mpin_fp2) { self.init(Fp(montgomery: k.re.l), Fp(montgomery: k.im.l)) }
    #endif

    package static var zero: Fp2 { Fp2(.zero, .zero) }
    package static var one: Fp2 { Fp2(.one, .zero) }
    package var isZero: Bool { a.isZero && b.isZero }
    package var isOne: Bool { a.isOne && b.isZero }
    /// All ones when zero, else zero (no branch).
    var zeroMask: UInt64 { a.zeroMask & b.zeroMask }
    /// y where `mask` is all ones, x where it is zero (no branch).
    @inline(__always) static func select(_ x: Fp2, _ y: Fp2, mask: UInt64) -> Fp2 {
        Fp2(.select(x.a, y.a, mask: mask), .select(x.b, y.b, mask: mask))
    }
    package var description: String { "[\(a), \(b)]" }

    @inline(__always) package static func + (x: Fp2, y: Fp2) -> Fp2 { Fp2(x.a + y.a, x.b + y.b) }
    @inline(__always) package static func - (x: Fp2, y: Fp2) -> Fp2 { Fp2(x.a - y.a, x.b - y.b) }
    @inline(__always) package static prefix func - (x: Fp2) -> Fp2 { Fp2(-x.a, -x.b) }
    package static func += (x: inout Fp2, y: Fp2) { x = x + y }
    package static func -= (x: inout Fp2, y: Fp2) { x = x - y }
    package static func *= (x: inout Fp2, y: Fp2) { x = x * y }

    /// Karatsuba: (a + bi)(c + di) = (ac - bd) + ((a+b)(c+d) - ac - bd)i, with one Montgomery
    /// reduction per coefficient (``Montgomery/mulFp2``). Inlined where it is used: the kernel's
    /// product alone, the portable path behind a call (``portableProduct(_:_:)``).
    @inline(__always) package static func * (x: Fp2, y: Fp2) -> Fp2 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                let r = mpin_fp2_mul_adx(
                    mpin_limbs4(l: x.a.v), mpin_limbs4(l: x.b.v), mpin_limbs4(l: y.a.v),
                    mpin_limbs4(l: y.b.v), mpin_limbs4(l: C._p), C._pInv)
                return Fp2(Fp(montgomery: r.re.l), Fp(montgomery: r.im.l))
            }
        #endif
        return portableProduct(x, y)
    }

    @inline(never) static func portableProduct(_ x: Fp2, _ y: Fp2) -> Fp2 {
        let (re, im) = Montgomery.mulFp2(x.a.v, x.b.v, y.a.v, y.b.v, C._p, C._pInv)
        return Fp2(Fp(montgomery: re), Fp(montgomery: im))
    }

    /// Multiplication by an element of F_p.
    package func scaled(by k: Fp<C>) -> Fp2 { Fp2(a * k, b * k) }

    /// (a + bi)² = (a+b)(a-b) + 2ab·i (with the kernel: two 512-bit products and two reductions,
    /// ``mpin_fp2_sqr_adx``). Inlined as the product is.
    @inline(__always) package func squared() -> Fp2 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                let r = mpin_fp2_sqr_adx(mpin_limbs4(l: a.v), mpin_limbs4(l: b.v), mpin_limbs4(l: C._p), C._pInv)
                return Fp2(Fp(montgomery: r.re.l), Fp(montgomery: r.im.l))
            }
        #endif
        return portableSquare()
    }

    @inline(never) func portableSquare() -> Fp2 {
        let t = a * b
        return Fp2((a + b) * (a - b), t + t)
    }

    @inline(__always) package func doubled() -> Fp2 { Fp2(a + a, b + b) }
    @inline(__always) package func halved() -> Fp2 { Fp2(a.halved(), b.halved()) }
    /// a - b·i.
    @inline(__always) package func conjugate() -> Fp2 { Fp2(a, -b) }
    /// Multiplication by ξ = 1 + i (AMCL `FP2_mul_ip`): (a - b) + (a + b)i.
    @inline(__always) package func mulByXi() -> Fp2 { Fp2(a - b, a + b) }
    /// Division by ξ = 1 + i (AMCL `FP2_div_ip`): (a + bi)(1 - i)/2.
    package func divByXi() -> Fp2 { Fp2((a + b).halved(), (b - a).halved()) }
    /// Multiplication by the twist's b' = 1 - i (``G2Point/b``): (a + b) + (b - a)i.
    @inline(__always) func timesTwistB() -> Fp2 { Fp2(a + b, b - a) }
    /// Multiplication by i: -b + a·i.
    package func mulByI() -> Fp2 { Fp2(-b, a) }

    /// (a - bi) / (a² + b²); nil for zero.
    package func inverse() -> Fp2? {
        guard let n = (a.squared() + b.squared()).inverse() else { return nil }
        return Fp2(a * n, -(b * n))
    }
    var inverseOrZero: Fp2 {
        let n = (a.squared() + b.squared()).inverseOrZero
        return Fp2(a * n, -(b * n))
    }

    /// x^e, e big-endian; branches on the bits of e (for public exponents).
    package func power(_ exponent: [UInt8]) -> Fp2 {
        var result = Fp2.one
        for byte in exponent {
            for j in stride(from: 7, through: 0, by: -1) {
                result = result.squared()
                if (byte >> UInt8(j)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// A square root in F_p² (AMCL `FP2_sqrt`), or nil when there is none. Branches on x: for
    /// public values.
    package func squareRoot() -> Fp2? {
        if isZero { return self }
        // w = sqrt(a² + b²) in F_p, then a' = sqrt((a + w)/2) or sqrt((a - w)/2), b' = b / (2a').
        guard let w = (a.squared() + b.squared()).squareRoot() else { return nil }
        var t = (a + w).halved()
        var root = t.squareRoot()
        if root == nil {
            t = (a - w).halved()
            root = t.squareRoot()
        }
        guard let x = root, let inv = x.doubled().inverse() else {
            // b == 0 and a is a non-square: sqrt is i·sqrt(-a)
            if b.isZero, let y = (-a).squareRoot() { return Fp2(.zero, y) }
            return nil
        }
        let candidate = Fp2(x, b * inv)
        return candidate.squared() == self ? candidate : nil
    }

    package static func == (x: Fp2, y: Fp2) -> Bool { x.a == y.a && x.b == y.b }
}
