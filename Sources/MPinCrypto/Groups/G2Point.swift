/// A point of the D-type sextic twist E'(F_p²): y² = x³ + (1 - i), which holds G2 (CRYPTO.md §2.2).
///
/// Encoding (AMCL `ECP2_toOctet`): 128 bytes `x.a || x.b || y.a || y.b`, no prefix, no compression.
/// The point at infinity, which AMCL cannot encode, is written as 128 zero bytes (not on the twist)
/// and refused on input.
public struct G2Point<C: PairingCurve>: Sendable, Equatable, CustomStringConvertible {
    var p: JacobianPoint<Fp2<C>>

    init(_ p: JacobianPoint<Fp2<C>>) { self.p = p }

    /// AMCL's G2 generator (CRYPTO.md §2.1).
    public static var generator: G2Point {
        G2Point(JacobianPoint(affineX: Fp2(C._g2x), affineY: Fp2(C._g2y)))
    }
    public static var infinity: G2Point { G2Point(.infinity) }
    /// b' = b / ξ = 2 / (1 + i) = 1 - i.
    static var b: Fp2<C> { Fp2(.one, -Fp.one) }

    static func isOnCurve(x: Fp2<C>, y: Fp2<C>) -> Bool { y.squared() == x.squared() * x + b }

    /// The affine point (x, y); nil when it is not on the twist.
    public init?(x: Fp2<C>, y: Fp2<C>) {
        guard Self.isOnCurve(x: x, y: y) else { return nil }
        p = JacobianPoint(affineX: x, affineY: y)
    }

    /// Decodes 128 bytes, validating length, range and the twist equation, and, when asked, that
    /// the point is in the subgroup of order r (AMCL itself does no subgroup check).
    public static func decode(_ bytes: [UInt8], checkSubgroup: Bool = false) throws(PointDecodingError) -> G2Point {
        guard bytes.count == 128 else { throw .wrongLength(expected: [128], actual: bytes.count) }
        if bytes.allSatisfy({ $0 == 0 }) { throw .pointAtInfinity }
        var f: [Fp<C>] = []
        for i in 0..<4 {
            guard let v = Fp<C>(bytes: Array(bytes[i * 32..<(i + 1) * 32])) else { throw .coordinateOutOfRange }
            f.append(v)
        }
        guard let point = G2Point(x: Fp2(f[0], f[1]), y: Fp2(f[2], f[3])) else { throw .notOnCurve }
        if checkSubgroup && !point.isInSubgroup { throw .notInSubgroup }
        return point
    }

    /// `try? decode(bytes)` (no subgroup check).
    public init?(encoded bytes: [UInt8]) {
        guard let point = try? G2Point.decode(bytes) else { return nil }
        self = point
    }

    /// 128 bytes `x.a||x.b||y.a||y.b`; 128 zero bytes for infinity.
    public func encoded() -> [UInt8] {
        guard let (x, y) = affine else { return [UInt8](repeating: 0, count: 128) }
        return x.a.bytes + x.b.bytes + y.a.bytes + y.b.bytes
    }

    public var affine: (x: Fp2<C>, y: Fp2<C>)? { p.affine() }
    public var isInfinity: Bool { p.isInfinity }
    public var description: String {
        guard let (x, y) = affine else { return "infinity" }
        return "(\(x), \(y))"
    }

    /// r·Q = O.
    public var isInSubgroup: Bool { p.multiplied(by: C._r).isInfinity }

    public static func + (a: G2Point, b: G2Point) -> G2Point { G2Point(a.p.adding(b.p)) }
    public static func - (a: G2Point, b: G2Point) -> G2Point { G2Point(a.p.adding(b.p.negated())) }
    public static prefix func - (a: G2Point) -> G2Point { G2Point(a.p.negated()) }
    public func doubled() -> G2Point { G2Point(p.doubled()) }

    /// k·Q, k big-endian: up to 32 bytes as they are, longer scalars reduced modulo r.
    public func multiplied(by scalar: [UInt8]) -> G2Point {
        G2Point(p.multiplied(by: ScalarLimbs.limbs(scalar, order: C._r)))
    }

    func multiplied(byLimbs k: Limbs4) -> G2Point { G2Point(p.multiplied(by: k)) }

    /// The Frobenius endomorphism on the twist (AMCL `ECP2_frob`): (x, y) ↦ (conj(x)·X², conj(y)·X³),
    /// which is [p]·Q on G2. Expects and returns an affine point.
    func frobenius() -> G2Point {
        guard let (x, y) = affine else { return self }
        let x2 = Fp2<C>(C._frob2), x3 = Fp2<C>(C._frob3)
        return G2Point(JacobianPoint(affineX: x.conjugate() * x2, affineY: y.conjugate() * x3))
    }

    public static func == (a: G2Point, b: G2Point) -> Bool { a.p.equals(b.p) }
}
