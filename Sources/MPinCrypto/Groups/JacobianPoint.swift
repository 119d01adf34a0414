/// A point of y² = x³ + b in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at
/// infinity. Shared by G1 (over F_p) and G2 (over F_p², the twist). Formulas for a = 0 from the
/// Explicit-Formulas Database: dbl-2009-l and add-2007-bl.
struct JacobianPoint<F: CurveField>: Sendable {
    var x: F
    var y: F
    var z: F

    init(x: F, y: F, z: F) { self.x = x; self.y = y; self.z = z }
    init(affineX: F, affineY: F) { x = affineX; y = affineY; z = .one }

    static var infinity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }
    var isInfinity: Bool { z.isZero }

    func negated() -> JacobianPoint { JacobianPoint(x: x, y: -y, z: z) }

    /// 2P.
    func doubled() -> JacobianPoint {
        if isInfinity { return self }
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

    /// P + Q, handling infinity and P = ±Q.
    func adding(_ q: JacobianPoint) -> JacobianPoint {
        if isInfinity { return q }
        if q.isInfinity { return self }
        let z1z1 = z.squared()
        let z2z2 = q.z.squared()
        let u1 = x * z2z2
        let u2 = q.x * z1z1
        let s1 = y * q.z * z2z2
        let s2 = q.y * z * z1z1
        let h = u2 - u1
        let rr = (s2 - s1).doubled()
        if h.isZero {
            return rr.isZero ? doubled() : .infinity
        }
        let i = h.doubled().squared()
        let j = h * i
        let v = u1 * i
        let x3 = rr.squared() - j - v.doubled()
        let y3 = rr * (v - x3) - (s1 * j).doubled()
        let z3 = ((z + q.z).squared() - z1z1 - z2z2) * h
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// (x, y) with x = X/Z², y = Y/Z³; nil at infinity.
    func affine() -> (x: F, y: F)? {
        if isInfinity { return nil }
        if z == .one { return (x, y) }
        let zi = z.inverseOrZero
        let zi2 = zi.squared()
        return (x * zi2, y * zi2 * zi)
    }

    /// The same point with Z = 1 (or infinity).
    func normalized() -> JacobianPoint {
        guard let (ax, ay) = affine() else { return .infinity }
        return JacobianPoint(affineX: ax, affineY: ay)
    }

    func equals(_ q: JacobianPoint) -> Bool {
        if isInfinity || q.isInfinity { return isInfinity && q.isInfinity }
        let z1z1 = z.squared()
        let z2z2 = q.z.squared()
        return x * z2z2 == q.x * z1z1 && y * q.z * z2z2 == q.y * z * z1z1
    }

    /// k·P for a 256-bit scalar k (limbs), with a fixed 4-bit window: 64 windows of four doublings
    /// and one addition each, the table entry read by scanning the whole table, so the pattern of
    /// operations does not depend on k (CRYPTO.md §5: scalars x, s and the PIN are secrets).
    func multiplied(by k: Limbs4) -> JacobianPoint {
        var table = [JacobianPoint](repeating: .infinity, count: 16)
        table[1] = self
        for i in 2..<16 { table[i] = (i & 1 == 0) ? table[i / 2].doubled() : table[i - 1].adding(self) }
        var acc = JacobianPoint.infinity
        var w = 63
        while w >= 0 {
            acc = acc.doubled().doubled().doubled().doubled()
            let digit = Int((Montgomery.bit(k, 4 * w)) | (Montgomery.bit(k, 4 * w + 1) << 1)
                            | (Montgomery.bit(k, 4 * w + 2) << 2) | (Montgomery.bit(k, 4 * w + 3) << 3))
            var selected = table[0]
            for i in 1..<16 where i == digit { selected = table[i] }
            acc = acc.adding(selected)
            w -= 1
        }
        return acc
    }

    /// k·P for a small non-negative k (public values: cofactors, PIN-sized factors).
    func multiplied(bySmall k: UInt64) -> JacobianPoint {
        multiplied(by: (k, 0, 0, 0))
    }
}
