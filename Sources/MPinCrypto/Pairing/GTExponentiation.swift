import CFieldKernel

/// x^e for a unitary x ∈ F_p¹² (``Fp12/unitaryPower(limbs:bits:)``), in constant time in x and e,
/// by GLS on GT where x is in GT and by plain fixed windows otherwise: the result is the same
/// (bit for bit) as square and multiply on every input.
///
/// GLS on GT (Galbraith, Scott, "Exponentiation in pairing-friendly groups using homomorphisms",
/// Pairing 2008; Galbraith, Lin, Scott, EUROCRYPT 2009; AMCL's `PAIR_GTpow` with `USE_GS_GT`,
/// docs/crypto.md §2.3): on GT, the subgroup of order r, the Frobenius x ↦ x^p is the power p ≡ 6u²
/// (mod r), so with e ≡ e0 + e1·p + e2·p² + e3·p³ (mod r), |eᵢ| < 2^64 (``ScalarDecomposition/gls(_:curve:)``),
/// x^e = Π x^(pⁱ·eᵢ): one chain of 64 cyclotomic squarings instead of 256.
///
/// Which elements are in GT is not known from the type (a pairing's output is, an element read
/// from bytes need not be), so ``isInGT(_:)`` tests it, and that outcome becomes public (like a
/// decoding check's); exponents of fewer than ``glsMinimumBits`` bits (PIN-sized) skip the test and
/// use the plain windows, which are then cheaper.
enum GTExponentiation {
    /// From this many exponent bits on, the GT test and GLS cost less than the plain windows: the
    /// test is a power by |u| (62 squarings, up to 10 multiplications) and GLS 63 squarings and 75
    /// multiplications, against `bits` squarings and bits/4 + 14 multiplications (a cyclotomic
    /// squaring costs about half a multiplication; callgrind counts 4.0 M instructions for the test
    /// and GLS, 17.9 k per bit for the plain windows on BN254CX).
    static var glsMinimumBits: Int { 200 }

    /// x^e for e < 2^bits (`bits` public, 0...256): GLS when bits ≥ ``glsMinimumBits`` and x is in
    /// GT, else ``plainPower(_:_:bits:)``.
    static func power<C: PairingCurve>(_ x: Fp12<C>, _ e: Limbs4, bits: Int) -> Fp12<C> {
        let bits = min(max(bits, 0), 256)
        if bits >= glsMinimumBits && isInGT(x) { return glsPower(x, e) }
        return plainPower(x, e, bits: bits)
    }

    /// x^e for a unitary x and e < 2^bits, in constant time: ⌈bits/4⌉ fixed 4-bit windows, most
    /// significant first, each four cyclotomic squarings and one multiplication by the table entry
    /// x^digit (x⁰ = 1 for a zero digit), read by touching all sixteen entries with masks. The
    /// number of operations depends on `bits` (public) only. Bit-exact with square and multiply:
    /// leading windows square 1, which stays 1, and multiplying by 1 is exact.
    static func plainPower<C: PairingCurve>(_ x: Fp12<C>, _ e: Limbs4, bits: Int) -> Fp12<C> {
        var table = [Fp12<C>](repeating: .one, count: 16)
        table[1] = x
        for i in 2..<16 { table[i] = table[i - 1] * x }
        let windows = (min(max(bits, 0), 256) + 3) / 4
        let hidden = Montgomery.barrier
        var result = Fp12<C>.one
        var w = windows - 1
        while w >= 0 {
            result = result.unitarySquared().unitarySquared().unitarySquared().unitarySquared()
            result = result * lookup(table, Montgomery.window(e, w), barrier: hidden)
            w -= 1
        }
        return result
    }

    /// Whether x is in GT; the outcome is made public (``SecretBoundary``), x is not. Two checks,
    /// constant time in x:
    /// 1. x is in the cyclotomic subgroup, of order Φ₁₂(p) = p⁴ - p² + 1: x^(p⁴)·x = x^(p²) (four
    ///    Frobenius maps). There conjugation inverts and the cyclotomic squaring squares.
    /// 2. x^A = 1 for A = (u+1) + u·p + u·p² - 2u·p³, a vector of the GLS lattice (A ≡ 0 mod r) with
    ///    gcd(A, Φ₁₂(p)) = r (checked by the constants' script), so that on the cyclic cyclotomic
    ///    subgroup x^A = 1 exactly when x^r = 1. With y = x^u (u < 0: the conjugate of x^|u|),
    ///    x^A = ((y⁻²)^p·y)^p·y)^p·x·y: one exponentiation by |u| and three Frobenius maps.
    static func isInGT<C: PairingCurve>(_ x: Fp12<C>) -> Bool {
        let x2 = x.frobenius().frobenius()
        let x4 = x2.frobenius().frobenius()
        guard SecretBoundary.reveal(equalMask(x4 * x, x2) != 0) else { return false }
        let y = x.unitaryPowerAbsU().conjugate()
        var t = y.conjugate().unitarySquared()
        t = t.frobenius() * y
        t = t.frobenius() * y
        t = t.frobenius() * (x * y)
        return SecretBoundary.reveal(t.oneMask != 0)
    }

    /// x^e for x in GT (callers check ``isInGT(_:)``: on other elements the result differs), any
    /// 256-bit e. The bases bᵢ = x^(pⁱ) (Frobenius maps), conjugated (inverted) by the sign masks of
    /// eᵢ, and the table of the sixteen products Π_{i ∈ m} bᵢ (eleven multiplications); then one
    /// bit of each |eᵢ| per step, most significant first: a cyclotomic squaring and a multiplication
    /// by the table entry of the four bits (1 for none), read with masks. Constant time in x and e.
    static func glsPower<C: PairingCurve>(_ x: Fp12<C>, _ e: Limbs4) -> Fp12<C> {
        let decomposition = ScalarDecomposition.gls(e, curve: C.self)
        let hidden = Montgomery.barrier
        var bases = [x]
        for i in 1..<4 { bases.append(bases[i - 1].frobenius()) }
        for i in 0..<4 { bases[i] = .select(bases[i], bases[i].conjugate(), mask: decomposition.negative[i] ^ hidden) }
        var table = [Fp12<C>](repeating: .one, count: 16)
        for m in 1..<16 {
            let rest = m & (m - 1)
            let base = bases[(m ^ rest).trailingZeroBitCount]
            table[m] = rest == 0 ? base : table[rest] * base
        }
        let magnitudes = decomposition.magnitudes
        let bits = 4 * C._glsWindows
        var result = Fp12<C>.one
        var j = bits - 1
        while j >= 0 {
            if j != bits - 1 { result = result.unitarySquared() }
            let digit =
                Montgomery.bit(magnitudes[0], j) | Montgomery.bit(magnitudes[1], j) << 1
                | Montgomery.bit(magnitudes[2], j) << 2 | Montgomery.bit(magnitudes[3], j) << 3
            result = result * lookup(table, digit, barrier: hidden)
            j -= 1
        }
        return result
    }

    /// table[digit] for a secret digit in 0..<16, touching all sixteen entries with masks (with the
    /// kernel, in C over the table's memory, ``mpin_fp12_select16``).
    @inline(__always)
    static func lookup<C: PairingCurve>(_ table: [Fp12<C>], _ digit: UInt64, barrier hidden: UInt64) -> Fp12<C> {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 && table.count == 16
                && MemoryLayout<Fp12<C>>.stride == MemoryLayout<mpin_fp12>.stride
            {
                return table.withUnsafeBufferPointer { buffer in
                    UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: mpin_fp12.self, capacity: 16) {
                        Fp12(mpin_fp12_select16($0, digit ^ hidden))
                    }
                }
            }
        #endif
        var entry = table[0]
        for i in 1..<16 { entry = .select(entry, table[i], mask: Montgomery.zeroMask(UInt64(i) ^ digit) ^ hidden) }
        return entry
    }

    /// All ones when x = y, else zero (no branch).
    static func equalMask<C: PairingCurve>(_ x: Fp12<C>, _ y: Fp12<C>) -> UInt64 {
        let d = x - y
        return d.a.a.zeroMask & d.a.b.zeroMask & d.b.a.zeroMask & d.b.b.zeroMask & d.c.a.zeroMask & d.c.b.zeroMask
    }
}
