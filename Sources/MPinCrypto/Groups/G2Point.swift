/// A point of the D-type sextic twist E'(F_p²): y² = x³ + (1 - i), which holds G2 (docs/crypto.md §2.2).
///
/// Encoding (AMCL `ECP2_toOctet`): 128 bytes `x.a || x.b || y.a || y.b`, no prefix, no compression.
/// The point at infinity, which AMCL cannot encode, is written as 128 zero bytes (not on the twist)
/// and refused on input.
///
/// Constant time on secret points and scalars as ``G1Point`` is; `==`, ``isInSubgroup`` and
/// ``description`` branch on the point: for public points.
///
/// Subgroup knowledge: ``knownInSubgroup`` records, as a public fact about where a point came
/// from, that it is in G2 (order r): the generator, infinity, a point decoded with
/// `checkSubgroup`, and every point computed from such points only (sums, differences,
/// negations, doublings, multiples, Frobenius images). ``multiplied(by:)`` uses GLS on those
/// points, which is exact only on G2, and the plain windows on any other twist point.
package struct G2Point<C: PairingCurve>: Sendable, Equatable, CustomStringConvertible {
    var p: JacobianPoint<Fp2<C>>
    /// The point is known to be in G2 (see the type's comment); false means unknown, not outside.
    package let knownInSubgroup: Bool

    init(_ p: JacobianPoint<Fp2<C>>, knownInSubgroup: Bool = false) {
        self.p = p
        self.knownInSubgroup = knownInSubgroup
    }

    /// AMCL's G2 generator (docs/crypto.md §2.1).
    package static var generator: G2Point {
        G2Point(JacobianPoint(affineX: Fp2(C._g2x), affineY: Fp2(C._g2y)), knownInSubgroup: true)
    }
    package static var infinity: G2Point { G2Point(.infinity, knownInSubgroup: true) }
    /// b' = b / ξ = 2 / (1 + i) = 1 - i.
    static var b: Fp2<C> { Fp2(.one, -Fp.one) }

    /// y² = x³ + b'; the outcome becomes public, the coordinates do not.
    static func isOnCurve(x: Fp2<C>, y: Fp2<C>) -> Bool {
        SecretBoundary.reveal((y.squared() - (x.squared() * x + b)).zeroMask != 0)
    }

    /// The affine point (x, y); nil when it is not on the twist.
    package init?(x: Fp2<C>, y: Fp2<C>) {
        guard Self.isOnCurve(x: x, y: y) else { return nil }
        p = JacobianPoint(affineX: x, affineY: y)
        knownInSubgroup = false
    }

    /// Decodes 128 bytes, validating length, range and the twist equation, and, when asked, that
    /// the point is in the subgroup of order r (AMCL itself does no subgroup check). The bytes may
    /// be secret (a server secret): the outcomes of the checks become public, the coordinates do
    /// not; the subgroup check is variable time (for public points).
    package static func decode(_ bytes: [UInt8], checkSubgroup: Bool = false) throws(PointDecodingError) -> G2Point {
        guard bytes.count == 128 else { throw .wrongLength(expected: [128], actual: bytes.count) }
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        if SecretBoundary.reveal(any == 0) { throw .pointAtInfinity }
        var f: [Fp<C>] = []
        for i in 0..<4 {
            guard let v = Fp<C>(bytes: Array(bytes[i * 32..<(i + 1) * 32])) else { throw .coordinateOutOfRange }
            f.append(v)
        }
        guard let point = G2Point(x: Fp2(f[0], f[1]), y: Fp2(f[2], f[3])) else { throw .notOnCurve }
        if checkSubgroup {
            guard point.isInSubgroup else { throw .notInSubgroup }
            return G2Point(point.p, knownInSubgroup: true)
        }
        return point
    }

    /// `try? decode(bytes)` (no subgroup check).
    package init?(encoded bytes: [UInt8]) {
        guard let point = try? G2Point.decode(bytes) else { return nil }
        self = point
    }

    /// 128 bytes `x.a||x.b||y.a||y.b`; 128 zero bytes for infinity.
    package func encoded() -> [UInt8] {
        guard let (x, y) = affine else { return [UInt8](repeating: 0, count: 128) }
        return x.a.bytes + x.b.bytes + y.a.bytes + y.b.bytes
    }

    package var affine: (x: Fp2<C>, y: Fp2<C>)? { p.affine() }
    package var isInfinity: Bool { p.isInfinity }
    package var description: String {
        guard let (x, y) = affine else { return "infinity" }
        return "(\(x), \(y))"
    }

    /// r·Q = O (variable time: for public points).
    package var isInSubgroup: Bool { p.multipliedVartime(by: C._r).isInfinity }

    package static func + (a: G2Point, b: G2Point) -> G2Point {
        G2Point(a.p.adding(b.p), knownInSubgroup: a.knownInSubgroup && b.knownInSubgroup)
    }
    package static func - (a: G2Point, b: G2Point) -> G2Point {
        G2Point(a.p.adding(b.p.negated()), knownInSubgroup: a.knownInSubgroup && b.knownInSubgroup)
    }
    package static prefix func - (a: G2Point) -> G2Point { G2Point(a.p.negated(), knownInSubgroup: a.knownInSubgroup) }
    package func doubled() -> G2Point { G2Point(p.doubled(), knownInSubgroup: knownInSubgroup) }

    /// k·Q, k big-endian: up to 32 bytes as they are, longer scalars reduced modulo r. Constant time
    /// in k and Q: GLS (``glsMultiplied(by:)``) when Q is ``knownInSubgroup``, else the plain
    /// windows (``JacobianPoint/multiplied(by:windows:largeOrder:)``), exact on every twist point.
    /// The result is known to be in G2 when Q is.
    package func multiplied(by scalar: [UInt8]) -> G2Point {
        let k = ScalarLimbs.limbs(scalar, order: C._r)
        if knownInSubgroup { return glsMultiplied(by: k) }
        return G2Point(p.multiplied(by: k, largeOrder: Self.ordersAreLarge))
    }

    /// ψ(Q) = (conj(x)·X², conj(y)·X³) in Jacobian coordinates: x = X/Z² gives conj(x)·X² =
    /// conj(X)·X² / conj(Z)², and likewise for y, so (conj(X)·X², conj(Y)·X³, conj(Z)); infinity stays
    /// infinity. Constant time (no branch).
    static func endomorphism(_ q: JacobianPoint<Fp2<C>>) -> JacobianPoint<Fp2<C>> {
        JacobianPoint(x: q.x.conjugate() * Fp2<C>(C._frob2), y: q.y.conjugate() * Fp2<C>(C._frob3), z: q.z.conjugate())
    }

    /// k·Q for any 256-bit k by GLS, for Q in G2 only (Galbraith, Scott, "Exponentiation in
    /// pairing-friendly groups using homomorphisms", 2008; Galbraith, Lin, Scott 2009): on G2 the
    /// Frobenius ψ is [p] and p ≡ 6u² (mod r), so with k ≡ k0 + k1·p + k2·p² + k3·p³ (mod r), |kᵢ| < 2^64
    /// (``ScalarDecomposition/gls(_:curve:)``), k·Q = Σ kᵢ·ψⁱ(Q): one doubling chain of a quarter of
    /// the length (``JacobianPoint/multipliedDecomposed(tables:by:windows:completeWindows:)``; the
    /// tables of ψⁱ(Q) are ψ of the previous table). On a twist point outside G2, ψ is not [p] and the
    /// result would differ: callers check ``knownInSubgroup``. Constant time in k and Q.
    func glsMultiplied(by k: Limbs4) -> G2Point {
        let decomposition = ScalarDecomposition.gls(k, curve: C.self)
        var tables = [p.signedWindowTable(barrier: Montgomery.barrier)]
        for i in 1..<4 { tables.append(tables[i - 1].map(Self.endomorphism)) }
        return G2Point(
            JacobianPoint.multipliedDecomposed(
                tables: tables, by: decomposition, windows: C._glsSignedWindows,
                completeWindows: C._glsCompleteWindows),
            knownInSubgroup: true)
    }

    /// Whether every point of the twist but infinity has an order above 2^253, so that the
    /// multiplication may skip the doubling in all but its last addition. The twist has r·h points,
    /// h = 2p - r, and decoding does not check the subgroup, so any divisor of r·h can be an order:
    /// h is prime for BN254CX (checked in the tests), while for BN254 it is 13 · 96757 · (a 233-bit
    /// factor), with points of order 13 on which any window can meet P = Q.
    static var ordersAreLarge: Bool { C.id == .bn254cx }

    /// k·Q by the variable-time algorithm, for public scalars (and the tests' reference).
    func multipliedVartime(by scalar: [UInt8]) -> G2Point {
        G2Point(p.multipliedVartime(by: ScalarLimbs.limbs(scalar, order: C._r)), knownInSubgroup: knownInSubgroup)
    }

    /// The Frobenius endomorphism on the twist (AMCL `ECP2_frob`): (x, y) ↦ (conj(x)·X², conj(y)·X³),
    /// which is [p]·Q on G2. Expects and returns an affine point (public: branches on infinity).
    func frobenius() -> G2Point {
        guard let (x, y) = affine else { return self }
        let x2 = Fp2<C>(C._frob2), x3 = Fp2<C>(C._frob3)
        return G2Point(
            JacobianPoint(affineX: x.conjugate() * x2, affineY: y.conjugate() * x3),
            knownInSubgroup: knownInSubgroup)
    }

    package static func == (a: G2Point, b: G2Point) -> Bool { a.p.equals(b.p) }
}
