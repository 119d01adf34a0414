/// A scalar modulo the group order r of curve `C`, in Montgomery form on four 64-bit limbs.
///
/// Reduction, +, -, · and ``inverse()`` are constant time in the values; ``power(_:)`` branches on
/// its exponent (public in ``inverse()``: r - 2) and `==`/``isZero`` are for public values.
package struct Fr<C: PairingCurve>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline var v: Limbs4

    init(montgomery v: Limbs4) { self.v = v }

    package static var zero: Fr { Fr(montgomery: (0, 0, 0, 0)) }
    package static var one: Fr { Fr(montgomery: C._rOne) }
    /// r, 32 bytes big-endian.
    package static var modulusBytes: [UInt8] { Montgomery.bytes(C._r) }

    package init(_ small: UInt64) {
        v = Montgomery.mul((small, 0, 0, 0), C._rR2, C._r, C._rInv)
    }

    /// Exactly 32 big-endian bytes of an integer below r; nil otherwise.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let x = Montgomery.limbs(bigEndian: bytes[...])
        guard SecretBoundary.reveal(Montgomery.less(x, C._r)) else { return nil }
        v = Montgomery.mul(x, C._rR2, C._r, C._rInv)
    }

    /// A big-endian integer of any length, reduced modulo r (constant time in its value).
    package init(reducing bytes: [UInt8]) {
        v = Montgomery.reduceToMontgomery(bigEndian: bytes, C._r, C._rInv, C._rR2)
    }

    package var bytes: [UInt8] { Montgomery.bytes(canonical) }
    var canonical: Limbs4 { Montgomery.mul(v, (1, 0, 0, 0), C._r, C._rInv) }
    package var isZero: Bool { Montgomery.isZero(v) }

    package var description: String {
        "0x" + Hex.encode(bytes)
    }

    package static func == (a: Fr, b: Fr) -> Bool { Montgomery.equal(a.v, b.v) }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(v.0)
        hasher.combine(v.1)
        hasher.combine(v.2)
        hasher.combine(v.3)
    }

    package static func + (a: Fr, b: Fr) -> Fr { Fr(montgomery: Montgomery.add(a.v, b.v, C._r)) }
    package static func - (a: Fr, b: Fr) -> Fr { Fr(montgomery: Montgomery.sub(a.v, b.v, C._r)) }
    package static prefix func - (a: Fr) -> Fr { Fr(montgomery: Montgomery.neg(a.v, C._r)) }
    package static func * (a: Fr, b: Fr) -> Fr { Fr(montgomery: Montgomery.mul(a.v, b.v, C._r, C._rInv)) }
    package func squared() -> Fr { self * self }

    /// x^e, e big-endian; branches on the bits of e (for public exponents).
    package func power(_ exponent: [UInt8]) -> Fr {
        var result = Fr.one
        for byte in exponent {
            for j in stride(from: 7, through: 0, by: -1) {
                result = result.squared()
                if (byte >> UInt8(j)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// x^-1 = x^(r-2); nil for zero (whether x is zero becomes public; the rest is constant time).
    package func inverse() -> Fr? {
        if SecretBoundary.reveal(isZero) { return nil }
        return power(Montgomery.bytes(C._rMinus2))
    }
}
