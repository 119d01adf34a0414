import CFieldKernel

/// Arithmetic on 256-bit integers held as four 64-bit limbs (least significant first), and
/// Montgomery multiplication modulo an odd modulus m < 2^254 with R = 2^256.
///
/// The modulus and -m^-1 mod 2^64 are parameters so that one implementation serves F_p and F_r
/// of both curves; after specialisation they are immediates. Because m < 2^254 (two spare bits),
/// the CIOS loop needs no carry word beyond the fourth limb (the "no-carry" variant), and every
/// result is reduced to [0, m) by one conditional subtraction.
///
/// Everything here that takes field elements or scalars runs in constant time: carries and borrows
/// go through `UInt128`, and a conditional subtraction, addition or negation applies a mask made by
/// ``mask(_:)`` instead of branching. The exceptions, which branch on their input and are for
/// public values only, say so: ``less(_:_:)``, ``isZero(_:)`` and ``equal(_:_:)`` return a `Bool`
/// that callers on secrets pass through ``SecretBoundary``; ``bitLength(_:)`` is for public
/// exponents.
///
/// The optimiser knows a mask to be zero or all ones, and may turn `a ^ ((a ^ b) & mask)` back into
/// a conditional move or a branch on the secret. In the field arithmetic it does not (`make
/// ct-check` would report it); in loops that do little but select (table lookups, repeated
/// conditional subtractions) it did, and there the masks are xored with a zero it cannot see
/// through, ``opaqueZero``, loaded once per operation (a load per field operation would cost
/// about 10% of a multiplication).
@usableFromInline
enum Montgomery {
    /// All ones when `bit` is 1, zero when it is 0 (`bit` must be 0 or 1).
    @inline(__always)
    static func mask(_ bit: UInt64) -> UInt64 { 0 &- bit }

    /// Zero, read from memory that another module could write, so that the optimiser cannot know it:
    /// a mask xored with it is no longer known to be zero or all ones. Read it once per operation
    /// (``barrier``) and pass it down.
    nonisolated(unsafe) package static let opaqueZero: UnsafeMutablePointer<UInt64> = {
        let cell = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        cell.initialize(to: 0)
        return cell
    }()

    /// The current value of ``opaqueZero`` (0).
    @inline(__always)
    static var barrier: UInt64 { opaqueZero.pointee }

    /// All ones when w = 0, else zero, without a branch.
    @inline(__always)
    static func zeroMask(_ w: UInt64) -> UInt64 { mask(((w | (0 &- w)) >> 63) ^ 1) }

    /// All ones when a = 0, else zero, without a branch.
    @inline(__always)
    static func zeroMask(_ a: Limbs4) -> UInt64 { zeroMask(a.0 | a.1 | a.2 | a.3) }

    /// All ones when a = b, else zero, without a branch.
    @inline(__always)
    static func equalMask(_ a: Limbs4, _ b: Limbs4) -> UInt64 {
        zeroMask((a.0 ^ b.0) | (a.1 ^ b.1) | (a.2 ^ b.2) | (a.3 ^ b.3))
    }

    /// b where `mask` is all ones, a where it is zero, limb by limb without a branch.
    @inline(__always)
    static func select(_ a: Limbs4, _ b: Limbs4, _ mask: UInt64) -> Limbs4 {
        (
            a.0 ^ ((a.0 ^ b.0) & mask), a.1 ^ ((a.1 ^ b.1) & mask),
            a.2 ^ ((a.2 ^ b.2) & mask), a.3 ^ ((a.3 ^ b.3) & mask)
        )
    }

    /// lo, hi of a + b·c + carry (never overflows 128 bits).
    @inline(__always)
    static func mac(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let t = UInt128(b) &* UInt128(c) &+ UInt128(a) &+ UInt128(carry)
        return (UInt64(truncatingIfNeeded: t), UInt64(truncatingIfNeeded: t &>> 64))
    }

    /// a - b - borrow, and the borrow out (0 or 1).
    @inline(__always)
    static func sbb(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
        let t = UInt128(a) &- UInt128(b) &- UInt128(borrow)
        return (UInt64(truncatingIfNeeded: t), UInt64(truncatingIfNeeded: t &>> 127))
    }

    /// a + b + carry, and the carry out (0 or 1).
    @inline(__always)
    static func adc(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let t = UInt128(a) &+ UInt128(b) &+ UInt128(carry)
        return (UInt64(truncatingIfNeeded: t), UInt64(truncatingIfNeeded: t &>> 64))
    }

    /// x - m if x >= m, else x, without branches (`barrier`: ``barrier`` in loops that do little
    /// else, 0 in the field arithmetic).
    @inline(__always)
    static func reduceOnce(_ x: Limbs4, _ m: Limbs4, barrier: UInt64 = 0) -> Limbs4 {
        let (d0, b0) = sbb(x.0, m.0, 0)
        let (d1, b1) = sbb(x.1, m.1, b0)
        let (d2, b2) = sbb(x.2, m.2, b1)
        let (d3, b3) = sbb(x.3, m.3, b2)
        let keep = mask(b3) ^ barrier  // all ones when x < m
        return (
            (x.0 & keep) | (d0 & ~keep), (x.1 & keep) | (d1 & ~keep),
            (x.2 & keep) | (d2 & ~keep), (x.3 & keep) | (d3 & ~keep)
        )
    }

    /// The 128-bit integer hi·2^64 + lo.
    @inline(__always)
    static func wide(_ lo: UInt64, _ hi: UInt64) -> UInt128 { UInt128(hi) &<< 64 | UInt128(lo) }

    /// All ones when the 256-bit two's-complement value with high half `hi` is negative, else zero.
    @inline(__always)
    static func signMask(_ hi: UInt128) -> UInt128 { UInt128(bitPattern: Int128(bitPattern: hi) &>> 127) }

    /// Limbs of the 256-bit integer hi·2^128 + lo.
    @inline(__always)
    static func limbs(_ lo: UInt128, _ hi: UInt128) -> Limbs4 {
        (
            UInt64(truncatingIfNeeded: lo), UInt64(truncatingIfNeeded: lo &>> 64),
            UInt64(truncatingIfNeeded: hi), UInt64(truncatingIfNeeded: hi &>> 64)
        )
    }

    /// x - m if x >= m, else x, for x < 2m (so that x - m lies in (-2^255, 2^255) and its sign, bit
    /// 255 of the wrapped difference, tells whether to keep x; m < 2^254). The field operations'
    /// final step: the 256-bit arithmetic goes through two `UInt128` halves, which compile to one
    /// sub/sbb chain and masks, half the instructions of a limb-by-limb borrow chain. No branch.
    @inline(__always)
    static func reduceBelow2m(_ x: Limbs4, _ m: Limbs4) -> Limbs4 {
        let xlo = wide(x.0, x.1), xhi = wide(x.2, x.3)
        let (dlo, borrow) = xlo.subtractingReportingOverflow(wide(m.0, m.1))
        let dhi = xhi &- wide(m.2, m.3) &- UInt128(borrow ? 1 : 0)
        let keep = signMask(dhi)  // all ones when x < m
        return limbs(dlo ^ ((dlo ^ xlo) & keep), dhi ^ ((dhi ^ xhi) & keep))
    }

    /// a + b mod m for a, b < m < 2^254: the sum is below 2^255, then ``reduceBelow2m(_:_:)``.
    @inline(__always)
    static func add(_ a: Limbs4, _ b: Limbs4, _ m: Limbs4) -> Limbs4 {
        let (slo, carry) = wide(a.0, a.1).addingReportingOverflow(wide(b.0, b.1))
        let shi = wide(a.2, a.3) &+ wide(b.2, b.3) &+ UInt128(carry ? 1 : 0)
        return reduceBelow2m(limbs(slo, shi), m)
    }

    /// a - b mod m for a, b < m < 2^254: a - b lies in (-2^254, 2^254), so its sign says whether to
    /// add m back (masked, no branch).
    @inline(__always)
    static func sub(_ a: Limbs4, _ b: Limbs4, _ m: Limbs4) -> Limbs4 {
        let (dlo, borrow) = wide(a.0, a.1).subtractingReportingOverflow(wide(b.0, b.1))
        let dhi = wide(a.2, a.3) &- wide(b.2, b.3) &- UInt128(borrow ? 1 : 0)
        let addBack = signMask(dhi)
        let (rlo, carry) = dlo.addingReportingOverflow(wide(m.0, m.1) & addBack)
        let rhi = dhi &+ (wide(m.2, m.3) & addBack) &+ UInt128(carry ? 1 : 0)
        return limbs(rlo, rhi)
    }

    /// -a mod m: m - a, masked to 0 when a = 0 (no branch).
    @inline(__always)
    static func neg(_ a: Limbs4, _ m: Limbs4) -> Limbs4 {
        let (dlo, borrow) = wide(m.0, m.1).subtractingReportingOverflow(wide(a.0, a.1))
        let dhi = wide(m.2, m.3) &- wide(a.2, a.3) &- UInt128(borrow ? 1 : 0)
        let nonzero = ~zeroMask(a)
        let keep = wide(nonzero, nonzero)
        return limbs(dlo & keep, dhi & keep)
    }

    /// a / 2 mod m: a + m when a is odd (m masked by the low bit, no branch; a + m < 2^255),
    /// shifted right.
    @inline(__always)
    static func half(_ a: Limbs4, _ m: Limbs4) -> Limbs4 {
        let odd = mask(a.0 & 1)
        let oddWide = wide(odd, odd)
        let (slo, carry) = wide(a.0, a.1).addingReportingOverflow(wide(m.0, m.1) & oddWide)
        let shi = wide(a.2, a.3) &+ (wide(m.2, m.3) & oddWide) &+ UInt128(carry ? 1 : 0)
        return limbs(slo &>> 1 | shi &<< 127, shi &>> 1)
    }

    /// a·b·R^-1 mod m, reduced to [0, m) (requires a, b < m < 2^254): the x86-64 kernel of
    /// CFieldKernel (MULX/ADCX/ADOX) when the processor has it, else ``mulPortable(_:_:_:_:)``. The
    /// choice is made once at load time and depends on the processor only, never on the operands;
    /// both paths give the same result (cross-checked in the tests and against GMP).
    @inline(__always)
    static func mul(_ a: Limbs4, _ b: Limbs4, _ m: Limbs4, _ inv: UInt64) -> Limbs4 {
        #if arch(x86_64)
            if mpin_field_kernel_available() != 0 {
                return mpin_mont_mul_adx(mpin_limbs4(l: a), mpin_limbs4(l: b), mpin_limbs4(l: m), inv).l
            }
        #endif
        return mulPortable(a, b, m, inv)
    }

    /// Whether ``mul(_:_:_:_:)`` runs the x86-64 kernel on this processor.
    package static var usesKernel: Bool {
        #if arch(x86_64)
            return mpin_field_kernel_available() != 0
        #else
            return false
        #endif
    }

    /// a·b·R^-1 mod m in portable Swift (CIOS, no-carry variant; requires m < 2^254).
    static func mulPortable(_ a: Limbs4, _ b: Limbs4, _ m: Limbs4, _ inv: UInt64) -> Limbs4 {
        var t0: UInt64, t1: UInt64, t2: UInt64, t3: UInt64
        var c: UInt64, c2: UInt64, k: UInt64, mm: UInt64, junk: UInt64
        // i = 0
        (t0, c) = mac(0, a.0, b.0, 0)
        (t1, c) = mac(0, a.1, b.0, c)
        (t2, c) = mac(0, a.2, b.0, c)
        (t3, k) = mac(0, a.3, b.0, c)
        mm = t0 &* inv
        (junk, c2) = mac(t0, mm, m.0, 0)
        (t0, c2) = mac(t1, mm, m.1, c2)
        (t1, c2) = mac(t2, mm, m.2, c2)
        (t2, c2) = mac(t3, mm, m.3, c2)
        t3 = k &+ c2
        // i = 1
        (t0, c) = mac(t0, a.0, b.1, 0)
        (t1, c) = mac(t1, a.1, b.1, c)
        (t2, c) = mac(t2, a.2, b.1, c)
        (t3, k) = mac(t3, a.3, b.1, c)
        mm = t0 &* inv
        (junk, c2) = mac(t0, mm, m.0, 0)
        (t0, c2) = mac(t1, mm, m.1, c2)
        (t1, c2) = mac(t2, mm, m.2, c2)
        (t2, c2) = mac(t3, mm, m.3, c2)
        t3 = k &+ c2
        // i = 2
        (t0, c) = mac(t0, a.0, b.2, 0)
        (t1, c) = mac(t1, a.1, b.2, c)
        (t2, c) = mac(t2, a.2, b.2, c)
        (t3, k) = mac(t3, a.3, b.2, c)
        mm = t0 &* inv
        (junk, c2) = mac(t0, mm, m.0, 0)
        (t0, c2) = mac(t1, mm, m.1, c2)
        (t1, c2) = mac(t2, mm, m.2, c2)
        (t2, c2) = mac(t3, mm, m.3, c2)
        t3 = k &+ c2
        // i = 3
        (t0, c) = mac(t0, a.0, b.3, 0)
        (t1, c) = mac(t1, a.1, b.3, c)
        (t2, c) = mac(t2, a.2, b.3, c)
        (t3, k) = mac(t3, a.3, b.3, c)
        mm = t0 &* inv
        (junk, c2) = mac(t0, mm, m.0, 0)
        (t0, c2) = mac(t1, mm, m.1, c2)
        (t1, c2) = mac(t2, mm, m.2, c2)
        (t2, c2) = mac(t3, mm, m.3, c2)
        t3 = k &+ c2
        _ = junk
        return reduceBelow2m((t0, t1, t2, t3), m)
    }

    /// The 512-bit product a·b as (low, high) limbs (schoolbook, 16 multiplications).
    @inline(__always)
    static func mulWide(_ a: Limbs4, _ b: Limbs4) -> (Limbs4, Limbs4) {
        var c: UInt64
        var t0, t1, t2, t3, t4, t5, t6, t7: UInt64
        (t0, c) = mac(0, a.0, b.0, 0)
        (t1, c) = mac(0, a.1, b.0, c)
        (t2, c) = mac(0, a.2, b.0, c)
        (t3, t4) = mac(0, a.3, b.0, c)
        (t1, c) = mac(t1, a.0, b.1, 0)
        (t2, c) = mac(t2, a.1, b.1, c)
        (t3, c) = mac(t3, a.2, b.1, c)
        (t4, t5) = mac(t4, a.3, b.1, c)
        (t2, c) = mac(t2, a.0, b.2, 0)
        (t3, c) = mac(t3, a.1, b.2, c)
        (t4, c) = mac(t4, a.2, b.2, c)
        (t5, t6) = mac(t5, a.3, b.2, c)
        (t3, c) = mac(t3, a.0, b.3, 0)
        (t4, c) = mac(t4, a.1, b.3, c)
        (t5, c) = mac(t5, a.2, b.3, c)
        (t6, t7) = mac(t6, a.3, b.3, c)
        return ((t0, t1, t2, t3), (t4, t5, t6, t7))
    }

    /// Montgomery reduction t·R^-1 mod m of a 512-bit t < m·R (R = 2^256), reduced to [0, m). The
    /// four rounds add kᵢ·m at limb i; the carry out of each round's top limb (i + 4) is kept aside
    /// and the four are added to the high half once at the end, as a 256-bit number (no round reads
    /// a limb above i + 4 before that, and only limb i decides kᵢ).
    @inline(__always)
    static func reduceWide(_ lo: Limbs4, _ hi: Limbs4, _ m: Limbs4, _ inv: UInt64) -> Limbs4 {
        var (t0, t1, t2, t3) = lo
        var (t4, t5, t6, t7) = hi
        var c: UInt64, k: UInt64, junk: UInt64
        let c0: UInt64, c1: UInt64, c2: UInt64, c3: UInt64
        k = t0 &* inv
        (junk, c) = mac(t0, k, m.0, 0)
        (t1, c) = mac(t1, k, m.1, c)
        (t2, c) = mac(t2, k, m.2, c)
        (t3, c0) = mac(t3, k, m.3, c)
        k = t1 &* inv
        (junk, c) = mac(t1, k, m.0, 0)
        (t2, c) = mac(t2, k, m.1, c)
        (t3, c) = mac(t3, k, m.2, c)
        (t4, c1) = mac(t4, k, m.3, c)
        k = t2 &* inv
        (junk, c) = mac(t2, k, m.0, 0)
        (t3, c) = mac(t3, k, m.1, c)
        (t4, c) = mac(t4, k, m.2, c)
        (t5, c2) = mac(t5, k, m.3, c)
        k = t3 &* inv
        (junk, c) = mac(t3, k, m.0, 0)
        (t4, c) = mac(t4, k, m.1, c)
        (t5, c) = mac(t5, k, m.2, c)
        (t6, c3) = mac(t6, k, m.3, c)
        _ = junk
        let (slo, carry) = wide(t4, t5).addingReportingOverflow(wide(c0, c1))
        let shi = wide(t6, t7) &+ wide(c2, c3) &+ UInt128(carry ? 1 : 0)
        return reduceBelow2m(limbs(slo, shi), m)
    }

    /// Karatsuba in F_p² = F_p[i]/(i² + 1) with lazy reduction: three 512-bit products and two
    /// Montgomery reductions instead of three full Montgomery multiplications. Requires m < 2^254,
    /// so that (2m)² < m·R and the unreduced sums a0 + a1 fit in 256 bits.
    ///   re = a0·b0 - a1·b1 (+ m·R when negative), im = (a0 + a1)(b0 + b1) - a0·b0 - a1·b1.
    @inline(__always)
    static func mulFp2(
        _ a0: Limbs4, _ a1: Limbs4, _ b0: Limbs4, _ b1: Limbs4,
        _ m: Limbs4, _ inv: UInt64
    ) -> (Limbs4, Limbs4) {
        let (l0, h0) = mulWide(a0, b0)
        let (l1, h1) = mulWide(a1, b1)
        let (s0, c0) = adc(a0.0, a1.0, 0), (s1, c1) = adc(a0.1, a1.1, c0)
        let (s2, c2) = adc(a0.2, a1.2, c1), (s3, _) = adc(a0.3, a1.3, c2)
        let (u0, d0) = adc(b0.0, b1.0, 0), (u1, d1) = adc(b0.1, b1.1, d0)
        let (u2, d2) = adc(b0.2, b1.2, d1), (u3, _) = adc(b0.3, b1.3, d2)
        let (l2, h2) = mulWide((s0, s1, s2, s3), (u0, u1, u2, u3))
        // re = t0 - t1
        var (r0, b) = sbb(l0.0, l1.0, 0)
        var r1, r2, r3, r4, r5, r6, r7: UInt64
        (r1, b) = sbb(l0.1, l1.1, b)
        (r2, b) = sbb(l0.2, l1.2, b)
        (r3, b) = sbb(l0.3, l1.3, b)
        (r4, b) = sbb(h0.0, h1.0, b)
        (r5, b) = sbb(h0.1, h1.1, b)
        (r6, b) = sbb(h0.2, h1.2, b)
        (r7, b) = sbb(h0.3, h1.3, b)
        let addBack = mask(b)
        var c: UInt64
        (r4, c) = adc(r4, m.0 & addBack, 0)
        (r5, c) = adc(r5, m.1 & addBack, c)
        (r6, c) = adc(r6, m.2 & addBack, c)
        (r7, _) = adc(r7, m.3 & addBack, c)
        // im = t2 - t0 - t1
        var (i0, e) = sbb(l2.0, l0.0, 0)
        var i1, i2, i3, i4, i5, i6, i7: UInt64
        (i1, e) = sbb(l2.1, l0.1, e)
        (i2, e) = sbb(l2.2, l0.2, e)
        (i3, e) = sbb(l2.3, l0.3, e)
        (i4, e) = sbb(h2.0, h0.0, e)
        (i5, e) = sbb(h2.1, h0.1, e)
        (i6, e) = sbb(h2.2, h0.2, e)
        (i7, _) = sbb(h2.3, h0.3, e)
        (i0, e) = sbb(i0, l1.0, 0)
        (i1, e) = sbb(i1, l1.1, e)
        (i2, e) = sbb(i2, l1.2, e)
        (i3, e) = sbb(i3, l1.3, e)
        (i4, e) = sbb(i4, h1.0, e)
        (i5, e) = sbb(i5, h1.1, e)
        (i6, e) = sbb(i6, h1.2, e)
        (i7, _) = sbb(i7, h1.3, e)
        let re = reduceWide((r0, r1, r2, r3), (r4, r5, r6, r7), m, inv)
        let im = reduceWide((i0, i1, i2, i3), (i4, i5, i6, i7), m, inv)
        return (re, im)
    }

    /// a = 0, as a `Bool` (for public values, or declassified by the caller).
    static func isZero(_ a: Limbs4) -> Bool { a.0 | a.1 | a.2 | a.3 == 0 }

    /// a = b, as a `Bool` (for public values, or declassified by the caller).
    static func equal(_ a: Limbs4, _ b: Limbs4) -> Bool {
        (a.0 ^ b.0) | (a.1 ^ b.1) | (a.2 ^ b.2) | (a.3 ^ b.3) == 0
    }

    /// a < b as integers (the borrow of a - b), as a `Bool` (for public values, or declassified by
    /// the caller).
    static func less(_ a: Limbs4, _ b: Limbs4) -> Bool {
        let (_, b0) = sbb(a.0, b.0, 0)
        let (_, b1) = sbb(a.1, b.1, b0)
        let (_, b2) = sbb(a.2, b.2, b1)
        let (_, b3) = sbb(a.3, b.3, b2)
        return b3 == 1
    }

    /// The 4-bit window of a 256-bit integer at bits 4w ..< 4w + 4 (w in 0..<64, public; the limb
    /// is chosen by w, the value is not branched on).
    @inline(__always)
    static func window(_ a: Limbs4, _ w: Int) -> UInt64 {
        let limb: UInt64
        switch w >> 4 {
        case 0: limb = a.0
        case 1: limb = a.1
        case 2: limb = a.2
        default: limb = a.3
        }
        return (limb >> UInt64((w & 15) << 2)) & 15
    }

    /// The 5-bit field of a 256-bit integer at bits 5j ..< 5j + 5 (j in 0..<52, public: the limbs are
    /// chosen by j, the value is not branched on), bits beyond 255 read as zero.
    @inline(__always)
    static func window5(_ a: Limbs4, _ j: Int) -> UInt64 {
        let start = 5 * j, index = start >> 6, offset = UInt64(start & 63)
        let low = index == 0 ? a.0 : index == 1 ? a.1 : index == 2 ? a.2 : a.3
        let high = index == 0 ? a.1 : index == 1 ? a.2 : index == 2 ? a.3 : 0
        // offset ≤ 63; the high limb's bits enter only when the field crosses into it.
        let spill = offset > 59 ? high << (64 &- offset) : 0
        return ((low >> offset) | spill) & 31
    }

    /// Bit i (0 = least significant) of a 256-bit integer (i public).
    static func bit(_ a: Limbs4, _ i: Int) -> UInt64 {
        let w: UInt64
        switch i >> 6 {
        case 0: w = a.0
        case 1: w = a.1
        case 2: w = a.2
        default: w = a.3
        }
        return (w >> UInt64(i & 63)) & 1
    }

    /// The bit length of a public integer (branches on it).
    static func bitLength(_ a: Limbs4) -> Int {
        if a.3 != 0 { return 192 + 64 - a.3.leadingZeroBitCount }
        if a.2 != 0 { return 128 + 64 - a.2.leadingZeroBitCount }
        if a.1 != 0 { return 64 + 64 - a.1.leadingZeroBitCount }
        return 64 - a.0.leadingZeroBitCount
    }

    /// Big-endian bytes (at most 32, shorter is left-padded) to limbs.
    static func limbs(bigEndian bytes: ArraySlice<UInt8>) -> Limbs4 {
        var w: [UInt64] = [0, 0, 0, 0]
        var shift: UInt64 = 0
        var index = 0
        for byte in bytes.reversed() {
            w[index] |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                shift = 0
                index += 1
            }
            if index == 4 { break }
        }
        return (w[0], w[1], w[2], w[3])
    }

    /// Limbs to 32 big-endian bytes.
    static func bytes(_ a: Limbs4) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let words = [a.3, a.2, a.1, a.0]
        for (i, w) in words.enumerated() {
            for j in 0..<8 { out[i * 8 + j] = UInt8(truncatingIfNeeded: w >> UInt64(56 - 8 * j)) }
        }
        return out
    }

    /// Reduce a big-endian integer of any length modulo m, returning Montgomery form (x·R mod m).
    /// Horner's rule on 32-byte chunks: acc = acc·2^256 + chunk, using mul by R² (= ·R in Montgomery).
    /// Constant time in the value (the length is public): each chunk, below 2^256 < 8m since
    /// m > 2^253, is reduced by seven conditional subtractions whatever its value.
    static func reduceToMontgomery(bigEndian bytes: [UInt8], _ m: Limbs4, _ inv: UInt64, _ r2: Limbs4) -> Limbs4 {
        // Pad to a multiple of 32 bytes on the left.
        let padding = (32 - bytes.count % 32) % 32
        let padded = [UInt8](repeating: 0, count: padding) + bytes
        let hidden = barrier
        var acc: Limbs4 = (0, 0, 0, 0)  // Montgomery form of the value so far
        var offset = 0
        while offset < padded.count {
            let chunk = limbs(bigEndian: padded[offset..<offset + 32])
            // chunk < 2^256 < 8m: seven conditional subtractions leave it below m.
            var c = chunk
            for _ in 0..<7 { c = reduceOnce(c, m, barrier: hidden) }
            let chunkMont = mul(c, r2, m, inv)
            // acc · 2^256 in Montgomery form is mul(acc, R² · R ...): acc_mont · R = mul(acc_mont, r2)
            acc = offset == 0 ? chunkMont : add(mul(acc, r2, m, inv), chunkMont, m)
            offset += 32
        }
        return acc
    }

    static func subRaw(_ a: Limbs4, _ b: Limbs4) -> Limbs4 {
        let (d0, b0) = sbb(a.0, b.0, 0)
        let (d1, b1) = sbb(a.1, b.1, b0)
        let (d2, b2) = sbb(a.2, b.2, b1)
        let (d3, _) = sbb(a.3, b.3, b2)
        return (d0, d1, d2, d3)
    }
}
