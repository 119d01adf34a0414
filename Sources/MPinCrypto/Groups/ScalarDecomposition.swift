/// A scalar k split as k ≡ k0 + k1·λ + k2·λ² + ... (mod r) into short signed parts, for the
/// endomorphism-accelerated multiplications: GLV on G1 (λ the eigenvalue of φ(x, y) = (βx, y),
/// two parts of at most 126 bits; Gallant, Lambert, Vanstone, "Faster point multiplication on
/// elliptic curves with efficient endomorphisms", CRYPTO 2001) and GLS on G2 and GT (λ = p, the
/// eigenvalue of the Frobenius, four parts of at most 64 bits; Galbraith, Scott, "Exponentiation in
/// pairing-friendly groups using homomorphisms", Pairing 2008, and Galbraith, Lin, Scott,
/// EUROCRYPT 2009). docs/crypto.md §2.1 (AMCL keeps the same method behind `USE_GLV`/`USE_GS_G2`/
/// `USE_GS_GT`).
///
/// The method is Babai's rounding with a reduced basis b_j of the lattice
/// {x : Σ xᵢλⁱ ≡ 0 mod r}: (k, 0, ..., 0) = Σ_j (k·β_j/r)·b_j, and k_vec = (k, 0, ...) - Σ_j c_j·b_j
/// with c_j the nearest integer to k·β_j/r differs from (k, 0, ...) by a lattice vector and is short.
/// No division at run time: c_j = ⌊(k·g_j + 2^255) / 2^256⌋ with g_j = round(2^256·|β_j|/r), the
/// high half of one 512-bit product, and kᵢ = [i = 0]·k + Σ_j c_j·M[j][i] mod 2^256 with the matrix
/// M[j][i] = -sign(β_j)·b_j[i] in two's complement: the true kᵢ are below 2^127, so arithmetic
/// modulo 2^256 gives them exactly, and the top bit is the sign. `Scripts/gen_curve_constants.py`
/// derives the constants, proves the bounds |kᵢ| < 16^windows for every k < r and checks the
/// identity on edge and random scalars.
///
/// Constant time in k: k is first reduced below r by seven conditional subtractions (2^256 < 8r:
/// callers pass any 256-bit k, and the bounds hold for k < r; k and k mod r give the same multiple
/// in a group of order r), then the same products, sums and masks whatever k is. The magnitudes
/// and sign masks are secret: their users read them through windows and masks only.
struct ScalarDecomposition {
    /// |kᵢ|, each below 16^windows (so in the two low limbs).
    let magnitudes: [Limbs4]
    /// All ones where kᵢ < 0, else zero.
    let negative: [UInt64]

    /// Splits k (any 256-bit value, reduced modulo `order` first) with the multipliers g_j and the
    /// matrix rows M[j] of the curve's constants.
    init(_ k: Limbs4, order: Limbs4, multipliers: [Limbs4], matrix: [[Limbs4]]) {
        let hidden = Montgomery.barrier
        var reduced = k
        for _ in 0..<7 { reduced = Montgomery.reduceOnce(reduced, order, barrier: hidden) }
        let dimension = multipliers.count
        // c_j = ⌊(k·g_j + 2^255) / 2^256⌋: add 2^255 to the low half, keep the carry into the high half.
        var coefficients: [Limbs4] = []
        coefficients.reserveCapacity(dimension)
        for g in multipliers {
            let (lo, hi) = Montgomery.mulWide(reduced, g)
            let (_, carry) = Montgomery.adc(lo.3, 1 << 63, 0)
            coefficients.append(Self.add(hi, (carry, 0, 0, 0)))
        }
        var magnitudes: [Limbs4] = []
        var negative: [UInt64] = []
        magnitudes.reserveCapacity(dimension)
        negative.reserveCapacity(dimension)
        for i in 0..<dimension {
            var acc: Limbs4 = i == 0 ? reduced : (0, 0, 0, 0)
            for j in 0..<dimension { acc = Self.add(acc, Montgomery.mulWide(coefficients[j], matrix[j][i]).0) }
            // Two's complement: negative when the top bit is set; |acc| = (acc ^ sign) - sign.
            let sign = Montgomery.mask(acc.3 >> 63)
            magnitudes.append(Self.add((acc.0 ^ sign, acc.1 ^ sign, acc.2 ^ sign, acc.3 ^ sign), (sign & 1, 0, 0, 0)))
            negative.append(sign)
        }
        self.magnitudes = magnitudes
        self.negative = negative
    }

    /// a + b mod 2^256 (no branch).
    @inline(__always)
    static func add(_ a: Limbs4, _ b: Limbs4) -> Limbs4 {
        let (s0, c0) = Montgomery.adc(a.0, b.0, 0)
        let (s1, c1) = Montgomery.adc(a.1, b.1, c0)
        let (s2, c2) = Montgomery.adc(a.2, b.2, c1)
        let (s3, _) = Montgomery.adc(a.3, b.3, c2)
        return (s0, s1, s2, s3)
    }

    /// GLV on G1: k ≡ k0 + k1·λ (mod r), |kᵢ| < 2^(4·`C._glvWindows`).
    static func glv<C: PairingCurve>(_ k: Limbs4, curve: C.Type) -> ScalarDecomposition {
        ScalarDecomposition(k, order: C._r, multipliers: C._glvMultipliers, matrix: C._glvMatrix)
    }

    /// GLS on G2 and GT: k ≡ k0 + k1·p + k2·p² + k3·p³ (mod r), |kᵢ| < 2^(4·`C._glsWindows`).
    static func gls<C: PairingCurve>(_ k: Limbs4, curve: C.Type) -> ScalarDecomposition {
        ScalarDecomposition(k, order: C._r, multipliers: C._glsMultipliers, matrix: C._glsMatrix)
    }
}
