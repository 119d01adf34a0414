import CFieldKernel

/// An element of the base field F_p of curve `C`, held in Montgomery form (x·2^256 mod p) on four
/// 64-bit limbs.
///
/// Encodings are AMCL's: 32 bytes big-endian of the canonical integer (docs/crypto.md §3).
///
/// Arithmetic (+, -, ·, negation, halving, inversion) is constant time; the comparisons (`==`,
/// ``isZero``, ``isOne``, ``isOdd``), ``power(_:)``, ``isSquare`` and ``squareRoot()`` branch on
/// their values and are for public data (docs/security.md, "Constant-time secrets").
package struct Fp<C: PairingCurve>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline var v: Limbs4

    init(montgomery v: Limbs4) { self.v = v }

    package static var zero: Fp { Fp(montgomery: (0, 0, 0, 0)) }
    package static var one: Fp { Fp(montgomery: C._pOne) }
    /// p, 32 bytes big-endian.
    package static var modulusBytes: [UInt8] { Montgomery.bytes(C._p) }

    package init(_ small: UInt64) {
        v = Montgomery.mul((small, 0, 0, 0), C._pR2, C._p, C._pInv)
    }

    /// Exactly 32 big-endian bytes of an integer below p; nil otherwise. Constant time in the bytes:
    /// only whether they are in range becomes public.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let x = Montgomery.limbs(bigEndian: bytes[...])
        guard SecretBoundary.reveal(Montgomery.less(x, C._p)) else { return nil }
        v = Montgomery.mul(x, C._pR2, C._p, C._pInv)
    }

    /// A big-endian integer of any length, reduced modulo p.
    package init(reducing bytes: [UInt8]) {
        v = Montgomery.reduceToMontgomery(bigEndian: bytes, C._p, C._pInv, C._pR2)
    }

    /// The canonical integer, 32 bytes big-endian.
    package var bytes: [UInt8] { Montgomery.bytes(canonical) }

    /// The canonical integer (out of Montgomery form) as limbs.
    var canonical: Limbs4 { Montgomery.mul(v, (1, 0, 0, 0), C._p, C._pInv) }

    package var isZero: Bool { Montgomery.isZero(v) }
    /// All ones when zero, else zero (no branch).
    var zeroMask: UInt64 { Montgomery.zeroMask(v) }
    /// b where `mask` is all ones, a where it is zero (no branch).
    @inline(__always) static func select(_ a: Fp, _ b: Fp, mask: UInt64) -> Fp {
        Fp(montgomery: Montgomery.select(a.v, b.v, mask))
    }
    package var isOne: Bool { Montgomery.equal(v, C._pOne) }
    /// Parity of the canonical integer (AMCL's `FP_parity`, used for the sign of y).
    package var isOdd: Bool { canonical.0 & 1 == 1 }

    package var description: String {
        "0x" + Hex.encode(bytes)
    }

    package static func == (a: Fp, b: Fp) -> Bool { Montgomery.equal(a.v, b.v) }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(v.0)
        hasher.combine(v.1)
        hasher.combine(v.2)
        hasher.combine(v.3)
    }

    @inline(__always) package static func + (a: Fp, b: Fp) -> Fp {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp(montgomery: mpin_add_mod(mpin_limbs4(l: a.v), mpin_limbs4(l: b.v), mpin_limbs4(l: C._p)).l)
            }
        #endif
        return Fp(montgomery: Montgomery.add(a.v, b.v, C._p))
    }
    @inline(__always) package static func - (a: Fp, b: Fp) -> Fp {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp(montgomery: mpin_sub_mod(mpin_limbs4(l: a.v), mpin_limbs4(l: b.v), mpin_limbs4(l: C._p)).l)
            }
        #endif
        return Fp(montgomery: Montgomery.sub(a.v, b.v, C._p))
    }
    @inline(__always) package static prefix func - (a: Fp) -> Fp { Fp(montgomery: Montgomery.neg(a.v, C._p)) }
    package static func * (a: Fp, b: Fp) -> Fp {
        Fp(montgomery: Montgomery.mul(a.v, b.v, C._p, C._pInv))
    }
    package static func += (a: inout Fp, b: Fp) { a = a + b }
    package static func -= (a: inout Fp, b: Fp) { a = a - b }
    package static func *= (a: inout Fp, b: Fp) { a = a * b }

    @inline(__always) package func squared() -> Fp { self * self }
    @inline(__always) package func doubled() -> Fp { self + self }
    /// x / 2.
    package func halved() -> Fp { Fp(montgomery: Montgomery.half(v, C._p)) }

    /// x^e for an exponent given as limbs (left-to-right square and multiply). Branches on the
    /// exponent only, so constant time in x for a public exponent (p - 2, (p + 1)/4, ...).
    func power(limbs e: Limbs4) -> Fp {
        var result = Fp.one
        let n = Montgomery.bitLength(e)
        var i = n - 1
        while i >= 0 {
            result = result.squared()
            if Montgomery.bit(e, i) == 1 { result = result * self }
            i -= 1
        }
        return result
    }

    /// x^e, e given big-endian (any length). Branches on the bits of e: for public exponents.
    package func power(_ exponent: [UInt8]) -> Fp {
        var result = Fp.one
        for byte in exponent {
            for j in stride(from: 7, through: 0, by: -1) {
                result = result.squared()
                if (byte >> UInt8(j)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// x^-1; nil for zero (whether x is zero becomes public).
    package func inverse() -> Fp? {
        if SecretBoundary.reveal(isZero) { return nil }
        return inverseOrZero
    }

    /// x^-1 = x^(p-2), which is 0 for 0 (AMCL's FP_inv convention); constant time. The portable
    /// path takes the power; the kernel runs Bernstein–Yang divsteps (``mpin_fp_inverse_adx``,
    /// about 38,000 instructions where the power takes about 64,000), and the tests hold the two
    /// paths to the same values.
    var inverseOrZero: Fp {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return Fp(
                    montgomery: mpin_fp_inverse_adx(
                        mpin_limbs4(l: v), mpin_limbs4(l: C._p), C._pInv, mpin_limbs4(l: C._pR2)
                    ).l)
            }
        #endif
        return power(limbs: C._pMinus2)
    }

    /// Legendre symbol (x/p) == 1. Zero is not a square here, as in AMCL's `jacobi(rhs, p) == 1` test.
    /// Branches on x: for public values (hash to G1).
    package var isSquare: Bool { !isZero && power(limbs: C._pMinus1Half).isOne }

    /// A square root x^((p+1)/4) (p ≡ 3 mod 4), or nil if x is not a square. The power is constant
    /// time; whether x is a square becomes public.
    package func squareRoot() -> Fp? {
        let s = power(limbs: C._pPlus1Quarter)
        return SecretBoundary.reveal(s.squared() == self) ? s : nil
    }
}
