/// F_p⁴ = F_p²[s]/(s² - ξ), ξ = 1 + i; `Fp4(a, b)` is a + b·s (AMCL `FP4`).
public struct Fp4<C: PairingCurve>: Sendable, Hashable, CustomStringConvertible {
    public var a: Fp2<C>
    public var b: Fp2<C>

    public init(_ a: Fp2<C>, _ b: Fp2<C>) { self.a = a; self.b = b }

    public static var zero: Fp4 { Fp4(.zero, .zero) }
    public static var one: Fp4 { Fp4(.one, .zero) }
    public var isZero: Bool { a.isZero && b.isZero }
    public var isOne: Bool { a.isOne && b.isZero }
    /// y where `mask` is all ones, x where it is zero (no branch).
    @inline(__always) static func select(_ x: Fp4, _ y: Fp4, mask: UInt64) -> Fp4 {
        Fp4(.select(x.a, y.a, mask: mask), .select(x.b, y.b, mask: mask))
    }
    public var description: String { "[\(a), \(b)]" }

    public static func + (x: Fp4, y: Fp4) -> Fp4 { Fp4(x.a + y.a, x.b + y.b) }
    public static func - (x: Fp4, y: Fp4) -> Fp4 { Fp4(x.a - y.a, x.b - y.b) }
    public static prefix func - (x: Fp4) -> Fp4 { Fp4(-x.a, -x.b) }
    public static func += (x: inout Fp4, y: Fp4) { x = x + y }
    public static func -= (x: inout Fp4, y: Fp4) { x = x - y }

    /// (a + bs)(c + ds) = (ac + ξ·bd) + ((a+b)(c+d) - ac - bd)s.
    public static func * (x: Fp4, y: Fp4) -> Fp4 {
        let t0 = x.a * y.a
        let t1 = x.b * y.b
        let t2 = (x.a + x.b) * (y.a + y.b)
        return Fp4(t0 + t1.mulByXi(), t2 - t0 - t1)
    }

    /// Multiplication by an element of F_p² (AMCL `FP4_pmul`).
    public func scaled(by k: Fp2<C>) -> Fp4 { Fp4(a * k, b * k) }

    /// (a + bs)² = (a² + ξb²) + 2ab·s.
    public func squared() -> Fp4 {
        let t0 = a.squared()
        let t1 = b.squared()
        let t2 = (a + b).squared()
        return Fp4(t0 + t1.mulByXi(), t2 - t0 - t1)
    }

    public func doubled() -> Fp4 { Fp4(a.doubled(), b.doubled()) }
    /// a - b·s (AMCL `FP4_conj`).
    public func conjugate() -> Fp4 { Fp4(a, -b) }
    /// -a + b·s (AMCL `FP4_nconj`).
    public func negatedConjugate() -> Fp4 { Fp4(-a, b) }
    /// Multiplication by s (AMCL `FP4_times_i`): (a + bs)s = ξb + a·s.
    public func mulByS() -> Fp4 { Fp4(b.mulByXi(), a) }

    /// (a - bs) / (a² - ξb²); nil for zero.
    public func inverse() -> Fp4? {
        guard let n = (a.squared() - b.squared().mulByXi()).inverse() else { return nil }
        return Fp4(a * n, -(b * n))
    }
    var inverseOrZero: Fp4 {
        let n = (a.squared() - b.squared().mulByXi()).inverseOrZero
        return Fp4(a * n, -(b * n))
    }

    /// x^e, e big-endian; branches on the bits of e (for public exponents).
    public func power(_ exponent: [UInt8]) -> Fp4 {
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
    public func frobenius() -> Fp4 {
        Fp4(a.conjugate(), b.conjugate() * Fp2<C>(C._frob3))
    }

    public static func == (x: Fp4, y: Fp4) -> Bool { x.a == y.a && x.b == y.b }
}
