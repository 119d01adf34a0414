/// A point of y² = x³ + b in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at
/// infinity. Shared by G1 (over F_p) and G2 (over F_p², the twist). Formulas for a = 0 from the
/// Explicit-Formulas Database: dbl-2009-l and add-2007-bl.
///
/// Constant time (docs/security.md, "Constant-time secrets"): ``doubled()``, ``adding(_:)``, ``negated()``,
/// ``multiplied(by:windows:largeOrder:)``, ``multipliedDecomposed(tables:by:windows:completeWindows:)``
/// and ``affine()`` neither branch nor index memory on the
/// coordinates or the scalar; ``affine()`` makes public only whether the point is infinity and whether Z = 1.
/// Variable time, for public data: ``addingVartime(_:)``, ``multipliedVartime(by:)`` and
/// ``equals(_:)``.
struct JacobianPoint<F: CurveField>: Sendable {
    var x: F
    var y: F
    var z: F

    init(x: F, y: F, z: F) {
        self.x = x
        self.y = y
        self.z = z
    }
    init(affineX: F, affineY: F) {
        x = affineX
        y = affineY
        z = .one
    }

    static var infinity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }
    /// Z = 0, as a `Bool` (branch on it only for public points).
    var isInfinity: Bool { z.isZero }
    /// All ones at infinity, else zero (no branch).
    var infinityMask: UInt64 { z.zeroMask }

    /// b where `mask` is all ones, a where it is zero (no branch).
    @inline(__always)
    static func select(_ a: JacobianPoint, _ b: JacobianPoint, mask: UInt64) -> JacobianPoint {
        JacobianPoint(
            x: .select(a.x, b.x, mask: mask), y: .select(a.y, b.y, mask: mask), z: .select(a.z, b.z, mask: mask))
    }

    func negated() -> JacobianPoint { JacobianPoint(x: x, y: -y, z: z) }

    /// 2P (dbl-2009-l), for every point: infinity (Z = 0) gives Z3 = 2·Y·Z = 0, infinity again, so
    /// there is nothing to branch on.
    func doubled() -> JacobianPoint {
        let a = x.squared()
        let b = y.squared()
        let c = b.squared()
        let d = ((x + b).squared() - a - c).doubled()
        let e = a.doubled() + a
        let f = e.squared()
        let x3 = f - d.doubled()
        let c8 = c.doubled().doubled().doubled()
        let y3 = e * (d - x3) - c8
        let z3 = (y * z).doubled()
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// add-2007-bl without its exceptional cases, and the masks that tell them: the sum is right
    /// when neither point is infinity and P ≠ ±Q; for P = -Q it has Z3 = 0 (infinity, right too);
    /// for P = Q (`sameX` and `sameY` all ones) it has Z3 = 0 and is wrong.
    @inline(__always)
    private func addingGeneric(_ q: JacobianPoint) -> (sum: JacobianPoint, sameX: UInt64, sameY: UInt64) {
        let z1z1 = z.squared()
        let z2z2 = q.z.squared()
        let u1 = x * z2z2
        let u2 = q.x * z1z1
        let s1 = y * q.z * z2z2
        let s2 = q.y * z * z1z1
        let h = u2 - u1
        let rr = (s2 - s1).doubled()
        let i = h.doubled().squared()
        let j = h * i
        let v = u1 * i
        let x3 = rr.squared() - j - v.doubled()
        let y3 = rr * (v - x3) - (s1 * j).doubled()
        let z3 = ((z + q.z).squared() - z1z1 - z2z2) * h
        return (JacobianPoint(x: x3, y: y3, z: z3), h.zeroMask, rr.zeroMask)
    }

    /// P + Q for all points, in constant time: the generic sum, 2P, P and Q are all at hand and the
    /// right one is chosen with masks (P = Q: 2P; P = O: Q; Q = O: P). `barrier`:
    /// ``Montgomery/barrier``, read by the caller once per operation.
    func adding(_ q: JacobianPoint, barrier: UInt64 = Montgomery.barrier) -> JacobianPoint {
        let (sum, sameX, sameY) = addingGeneric(q)
        var out = JacobianPoint.select(sum, doubled(), mask: (sameX & sameY) ^ barrier)
        out = .select(out, q, mask: infinityMask ^ barrier)
        return .select(out, self, mask: q.infinityMask ^ barrier)
    }

    /// P + Q in constant time when P ≠ Q unless both are infinity (P = -Q is fine): the generic sum,
    /// with P = O or Q = O handled by masks. Saves ``adding(_:)``'s doubling where P = Q cannot
    /// happen (see ``multiplied(by:windows:largeOrder:)``).
    @inline(__always)
    private func addingDistinct(_ q: JacobianPoint, barrier: UInt64) -> JacobianPoint {
        let sum = addingGeneric(q).sum
        let out = JacobianPoint.select(sum, q, mask: infinityMask ^ barrier)
        return .select(out, self, mask: q.infinityMask ^ barrier)
    }

    /// P + Q, handling infinity and P = ±Q by branches: variable time, for public points.
    func addingVartime(_ q: JacobianPoint) -> JacobianPoint {
        if isInfinity { return q }
        if q.isInfinity { return self }
        let (sum, sameX, sameY) = addingGeneric(q)
        if sameX != 0 { return sameY != 0 ? doubled() : .infinity }
        return sum
    }

    /// (x, y) with x = X/Z², y = Y/Z³; nil at infinity. Z⁻¹ = Z^(p-2) with the fixed exponent, so
    /// only whether the point is infinity (its encoding tells anyway) and whether Z = 1 become public.
    func affine() -> (x: F, y: F)? {
        var infinite = infinityMask
        SecretBoundary.declassify(&infinite)
        if infinite != 0 { return nil }
        // Z = 1 (a decoded point, or one normalized before): x and y as they are, no inversion.
        // Whether Z is 1 becomes public: it says how the point was made, not what it is (a point
        // computed from a secret has Z = 1 with probability about 2^-254).
        var normalized = (z - .one).zeroMask
        SecretBoundary.declassify(&normalized)
        if normalized != 0 { return (x, y) }
        let zi = z.inverseOrZero
        let zi2 = zi.squared()
        return (x * zi2, y * zi2 * zi)
    }

    /// The same point with Z = 1 (or infinity).
    func normalized() -> JacobianPoint {
        guard let (ax, ay) = affine() else { return .infinity }
        return JacobianPoint(affineX: ax, affineY: ay)
    }

    /// P = Q, by branches: for public points.
    func equals(_ q: JacobianPoint) -> Bool {
        if isInfinity || q.isInfinity { return isInfinity && q.isInfinity }
        let z1z1 = z.squared()
        let z2z2 = q.z.squared()
        return x * z2z2 == q.x * z1z1 && y * q.z * z2z2 == q.y * z * z1z1
    }

    /// k·P in constant time for k < 16^windows (256-bit limbs; `windows` in 0...64 is public: 64
    /// for scalars, ⌈bits/4⌉ for PIN-sized factors). Fixed 4-bit windows, most significant first:
    /// four doublings and one addition per window, whatever the digits. The table holds 0·P ... 15·P
    /// (0·P is infinity); the entry is read by touching all sixteen with masks, the digit never
    /// being an index or a branch. Additions are exception-free: ``adding(_:)`` where P = Q may
    /// happen, masks for infinity otherwise.
    ///
    /// `largeOrder`: P is infinity or its order is above 2^253 (every point of G1, of order r; every
    /// point of a twist whose order is a product of such primes). Before window w the accumulator
    /// is 16t·P with t = ⌊k / 16^(w+1)⌋, and for w ≥ 1, 0 < 16t ± d < 2^252 + 16 for a digit
    /// 1 ≤ d ≤ 15 and t ≥ 1, so no multiple of P's order: the accumulator is neither d·P nor -d·P,
    /// and only the last window needs the addition that handles P = Q (k ≥ r can reach it there).
    /// Without it every addition does.
    func multiplied(by k: Limbs4, windows: Int = 64, largeOrder: Bool) -> JacobianPoint {
        let hidden = Montgomery.barrier
        let table = windowTable(largeOrder: largeOrder, barrier: hidden)
        var acc = JacobianPoint.infinity
        var w = min(max(windows, 0), 64) - 1
        while w >= 0 {
            acc = acc.doubled().doubled().doubled().doubled()
            let entry = Self.lookup(table, Montgomery.window(k, w), barrier: hidden)
            acc = largeOrder && w != 0 ? acc.addingDistinct(entry, barrier: hidden) : acc.adding(entry, barrier: hidden)
            w -= 1
        }
        return acc
    }

    /// 0·P, 1·P, ..., 15·P (0·P is infinity), by doublings and additions of P. `largeOrder` as in
    /// ``multiplied(by:windows:largeOrder:)``: then (i + 1)·P = i·P + P never meets i·P = P, which
    /// would need P's order to divide i - 1 < 15.
    func windowTable(largeOrder: Bool, barrier hidden: UInt64) -> [JacobianPoint] {
        var table = [JacobianPoint](repeating: .infinity, count: 16)
        table[1] = self
        for i in stride(from: 2, to: 16, by: 2) {
            table[i] = table[i / 2].doubled()
            table[i + 1] =
                largeOrder ? table[i].addingDistinct(self, barrier: hidden) : table[i].adding(self, barrier: hidden)
        }
        return table
    }

    /// 0·P, 1·P, ..., 16·P, the table of the signed 5-bit windows of
    /// ``multipliedDecomposed(tables:by:windows:completeWindows:)``: as ``windowTable(largeOrder:barrier:)``
    /// with `largeOrder` (P infinity or of order above 16), and 16·P = 2·(8·P).
    func signedWindowTable(barrier hidden: UInt64) -> [JacobianPoint] {
        var table = windowTable(largeOrder: true, barrier: hidden)
        table.append(table[8].doubled())
        return table
    }

    /// table[digit] for a secret digit below the table's size, read by touching every entry with
    /// masks: the digit is never an index or a branch.
    @inline(__always)
    static func lookup(_ table: [JacobianPoint], _ digit: UInt64, barrier hidden: UInt64) -> JacobianPoint {
        var entry = table[0]
        for i in 1..<table.count {
            entry = .select(entry, table[i], mask: Montgomery.zeroMask(UInt64(i) ^ digit) ^ hidden)
        }
        return entry
    }

    /// The signed base-32 digits of k < 32^count·15/32: k = Σⱼ dⱼ·32^j with dⱼ in [-16, 15] and the
    /// last in [0, 15], as (|dⱼ|, all ones when dⱼ < 0). A field v of 16 or more (the carry included)
    /// becomes v - 32 with a carry into the next; computed with masks, no branch on k.
    static func signedDigits(_ k: Limbs4, count: Int) -> [(magnitude: UInt64, negative: UInt64)] {
        var digits: [(magnitude: UInt64, negative: UInt64)] = []
        digits.reserveCapacity(count)
        var carry: UInt64 = 0
        for j in 0..<count {
            let v = Montgomery.window5(k, j) &+ carry  // 0 ... 32
            carry = (v &+ 16) >> 5  // 1 when v ≥ 16
            let negative = 0 &- carry
            digits.append(((v & ~negative) | ((32 &- v) & negative), negative))
        }
        return digits
    }

    /// Σᵢ kᵢ·Bᵢ for the decomposition k ≡ Σᵢ kᵢ·λⁱ of ``ScalarDecomposition`` (GLV on G1, GLS on
    /// G2), where `tables[i]` is ``signedWindowTable(barrier:)`` of Bᵢ = endomorphismⁱ(P) = λⁱ·P, so
    /// that the result is k·P. Constant time in the kᵢ and P: `windows` signed 5-bit windows of the
    /// magnitudes |kᵢ| (``signedDigits(_:count:)``, public count), each five doublings (none in the
    /// first, where the accumulator is infinity) and one addition per table; the entry |d|·Bᵢ is read
    /// by masks and negated when the digit's sign and kᵢ's differ, so the sum is Σᵢ kᵢ·Bᵢ. Against
    /// unsigned 4-bit windows: a fifth fewer additions (G1: 52 instead of 64, G2: 52 instead of 64),
    /// the same doublings, one table entry more.
    ///
    /// Exceptional additions: P must be infinity or of order r. Before an addition the accumulator
    /// is Σᵢ xᵢ·sᵢ·Bᵢ and the entry d·sⱼ·Bⱼ (sᵢ the signs, d ≠ 0 a digit); they are equal only if the
    /// vector y with yᵢ = xᵢ, yⱼ = xⱼ - d (scaled by the signs) is a nonzero vector of the lattice
    /// {y : Σ yᵢλⁱ ≡ 0 mod r}, and in window w every |yᵢ| ≤ |kᵢ|/32^w + 33. The generator script
    /// bounds the |kᵢ| and the shortest lattice vectors, and sets `completeWindows`: in the windows
    /// w ≥ completeWindows no such vector fits, so the addition without the doubling case is exact
    /// (infinity on either side is handled by masks); the lowest windows keep ``adding(_:barrier:)``.
    static func multipliedDecomposed(
        tables: [[JacobianPoint]], by decomposition: ScalarDecomposition,
        windows: Int, completeWindows: Int
    ) -> JacobianPoint {
        let hidden = Montgomery.barrier
        let digits = decomposition.magnitudes.map { signedDigits($0, count: windows) }
        var acc = JacobianPoint.infinity
        var w = windows - 1
        while w >= 0 {
            if w != windows - 1 { acc = acc.doubled().doubled().doubled().doubled().doubled() }
            for i in 0..<tables.count {
                let digit = digits[i][w]
                var entry = lookup(tables[i], digit.magnitude, barrier: hidden)
                entry.y = .select(entry.y, -entry.y, mask: (decomposition.negative[i] ^ digit.negative) ^ hidden)
                acc =
                    w < completeWindows
                    ? acc.adding(entry, barrier: hidden) : acc.addingDistinct(entry, barrier: hidden)
            }
            w -= 1
        }
        return acc
    }

    /// k·P for a public 256-bit k: fixed 4-bit windows that skip zero digits and branch on infinity
    /// (variable time; the subgroup check r·Q and the tests' reference for the constant-time path).
    func multipliedVartime(by k: Limbs4) -> JacobianPoint {
        var table = [JacobianPoint](repeating: .infinity, count: 16)
        table[1] = self
        for i in 2..<16 { table[i] = (i & 1 == 0) ? table[i / 2].doubled() : table[i - 1].addingVartime(self) }
        var acc = JacobianPoint.infinity
        var w = 63
        while w >= 0 {
            acc = acc.doubled().doubled().doubled().doubled()
            let digit = Int(Montgomery.window(k, w))
            if digit != 0 { acc = acc.addingVartime(table[digit]) }
            w -= 1
        }
        return acc
    }
}
