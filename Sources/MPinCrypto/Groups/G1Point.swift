/// A point of G1 = E(F_p), E: y² = x³ + 2 (cofactor 1, so every point of E is in G1).
///
/// Encoding (AMCL `ECP_toOctet`): 65 bytes `04 || x || y`; `02/03 || x` (33 bytes, the prefix's low
/// bit the parity of y) is accepted on input. The point at infinity has no AMCL encoding; this
/// package writes it as the single byte `00` and refuses it on input.
///
/// Constant time on secret points and scalars (docs/security.md, "Constant-time secrets"): `+`, `-`,
/// negation, ``multiplied(by:)``, ``encoded(compressed:)`` and ``decode(_:)`` make public only
/// whether a point is infinity and whether bytes decode. `==` and ``description`` branch on the
/// point: for public points.
package struct G1Point<C: PairingCurve>: Sendable, Equatable, CustomStringConvertible {
    var p: JacobianPoint<Fp<C>>

    init(_ p: JacobianPoint<Fp<C>>) { self.p = p }

    /// The AMCL generator (-1, 1).
    package static var generator: G1Point { G1Point(JacobianPoint(affineX: -Fp.one, affineY: .one)) }
    package static var infinity: G1Point { G1Point(.infinity) }
    /// b = 2.
    static var b: Fp<C> { Fp(2) }

    /// y² = x³ + 2; the outcome becomes public, the coordinates do not.
    static func isOnCurve(x: Fp<C>, y: Fp<C>) -> Bool {
        SecretBoundary.reveal((y.squared() - (x.squared() * x + b)).zeroMask != 0)
    }

    /// The affine point (x, y); nil when it is not on the curve.
    package init?(x: Fp<C>, y: Fp<C>) {
        guard Self.isOnCurve(x: x, y: y) else { return nil }
        p = JacobianPoint(affineX: x, affineY: y)
    }

    /// The point with abscissa x and the y of the given parity; nil when x³ + 2 is not a square.
    package init?(x: Fp<C>, yIsOdd: Bool) {
        self.init(x: x, yParity: yIsOdd ? 1 : 0)
    }

    /// The same with the parity as a bit (0 or 1): the root is negated by a mask, so only whether
    /// x³ + 2 is a square becomes public.
    init?(x: Fp<C>, yParity: UInt64) {
        guard let root = (x.squared() * x + Self.b).squareRoot() else { return nil }
        let flip = Montgomery.mask((root.canonical.0 ^ yParity) & 1) ^ Montgomery.barrier
        p = JacobianPoint(affineX: x, affineY: .select(root, -root, mask: flip))
    }

    /// Decodes 65 bytes `04||x||y` or 33 bytes `02/03||x`, validating length, prefix, range and curve.
    /// The bytes may be secret (a token): the checks' outcomes become public, the coordinates and
    /// the parity bit of a compressed prefix do not.
    package static func decode(_ bytes: [UInt8]) throws(PointDecodingError) -> G1Point {
        if bytes.count == 1 && bytes[0] == 0 { throw .pointAtInfinity }
        guard bytes.count == 65 || bytes.count == 33 else {
            throw .wrongLength(expected: [65, 33], actual: bytes.count)
        }
        let prefix = bytes[0]
        if bytes.count == 65 {
            guard SecretBoundary.reveal(prefix == 0x04) else { throw .badPrefix(revealed(prefix)) }
            guard let x = Fp<C>(bytes: Array(bytes[1..<33])), let y = Fp<C>(bytes: Array(bytes[33..<65])) else {
                throw .coordinateOutOfRange
            }
            guard let point = G1Point(x: x, y: y) else { throw .notOnCurve }
            return point
        }
        guard SecretBoundary.reveal(prefix & 0xFE == 0x02) else { throw .badPrefix(revealed(prefix)) }
        guard let x = Fp<C>(bytes: Array(bytes[1..<33])) else { throw .coordinateOutOfRange }
        guard let point = G1Point(x: x, yParity: UInt64(prefix & 1)) else { throw .notOnCurve }
        return point
    }

    /// A prefix byte that goes into an error, declassified.
    private static func revealed(_ byte: UInt8) -> UInt8 {
        var b = byte
        SecretBoundary.declassify(&b)
        return b
    }

    /// `try? decode(bytes)`.
    package init?(encoded bytes: [UInt8]) {
        guard let point = try? G1Point.decode(bytes) else { return nil }
        self = point
    }

    /// 65 bytes `04||x||y`, or 33 bytes `02/03||x` when compressed; `[0]` for infinity.
    package func encoded(compressed: Bool = false) -> [UInt8] {
        guard let (x, y) = affine else { return [0] }
        if compressed { return [0x02 | UInt8(truncatingIfNeeded: y.canonical.0 & 1)] + x.bytes }
        return [0x04] + x.bytes + y.bytes
    }

    package var affine: (x: Fp<C>, y: Fp<C>)? { p.affine() }
    package var isInfinity: Bool { p.isInfinity }
    package var description: String {
        guard let (x, y) = affine else { return "infinity" }
        return "(\(x), \(y))"
    }

    /// P + Q, and −P: as methods too, for code in another package (the fuzz targets) that sees
    /// these `package` declarations through a testable import, where operators are not found.
    package func adding(_ other: G1Point) -> G1Point { G1Point(p.adding(other.p)) }
    package func negated() -> G1Point { G1Point(p.negated()) }

    package static func + (a: G1Point, b: G1Point) -> G1Point { a.adding(b) }
    package static func - (a: G1Point, b: G1Point) -> G1Point { a.adding(b.negated()) }
    package static prefix func - (a: G1Point) -> G1Point { a.negated() }
    package func doubled() -> G1Point { G1Point(p.doubled()) }

    /// k·P, k big-endian: up to 32 bytes taken as they are (AMCL reads a 256-bit BIG), longer
    /// scalars reduced modulo r. Constant time in k and P, by GLV (``glvMultiplied(by:)``).
    package func multiplied(by scalar: [UInt8]) -> G1Point {
        glvMultiplied(by: ScalarLimbs.limbs(scalar, order: C._r))
    }

    /// k·P for k < 2^bits (`bits` public, 0...256), constant time in k and P: ⌈bits/4⌉ fixed
    /// windows (``JacobianPoint/multiplied(by:windows:largeOrder:)``) up to ``glvMinimumBits``,
    /// where they cost less than GLV's two half-length chains (PIN-sized factors), else GLV.
    func multiplied(byLimbs k: Limbs4, bits: Int = 256) -> G1Point {
        let bits = min(max(bits, 0), 256)
        if bits >= Self.glvMinimumBits { return glvMultiplied(by: k) }
        return G1Point(p.multiplied(by: k, windows: (bits + 3) / 4, largeOrder: true))
    }

    /// From this many scalar bits on, ``multiplied(byLimbs:bits:)`` uses GLV: the plain windows
    /// cost `bits` doublings and bits/4 additions, GLV 125 doublings and 52 additions.
    static var glvMinimumBits: Int { 176 }

    /// φ(x, y) = (β·x, y), which is λ·P on every point of E(F_p) (β³ = 1 in F_p, λ² + λ + 1 ≡ 0 mod r;
    /// docs/crypto.md §2.1, the pair checked on the generator by the constants' script). In Jacobian
    /// coordinates it scales X by β (x = X/Z²); infinity stays infinity.
    static func endomorphism(_ q: JacobianPoint<Fp<C>>) -> JacobianPoint<Fp<C>> {
        JacobianPoint(x: q.x * Fp<C>(montgomery: C._glvBeta), y: q.y, z: q.z)
    }

    /// k·P for any 256-bit k by GLV (Gallant, Lambert, Vanstone, CRYPTO 2001): k ≡ k0 + k1·λ (mod r)
    /// with |kᵢ| < 2^126 (``ScalarDecomposition/glv(_:curve:)``), and k·P = k0·P + k1·φ(P) with one
    /// doubling chain of half the length (``JacobianPoint/multipliedDecomposed(tables:by:windows:completeWindows:)``;
    /// the table of φ(P) is φ of the table of P). Valid for every point: G1 = E(F_p) has prime order
    /// r, so every point but infinity has order r and k·P depends on k mod r only. Constant time in
    /// k and P; the same result as the plain windows (tests: ``multipliedVartime(by:)``).
    func glvMultiplied(by k: Limbs4) -> G1Point {
        let decomposition = ScalarDecomposition.glv(k, curve: C.self)
        let table = p.signedWindowTable(barrier: Montgomery.barrier)
        let tables = [table, table.map(Self.endomorphism)]
        return G1Point(
            JacobianPoint.multipliedDecomposed(
                tables: tables, by: decomposition, windows: C._glvSignedWindows,
                completeWindows: C._glvCompleteWindows))
    }

    /// k·P by the variable-time algorithm, for public scalars (and the tests' reference).
    func multipliedVartime(by scalar: [UInt8]) -> G1Point {
        G1Point(p.multipliedVartime(by: ScalarLimbs.limbs(scalar, order: C._r)))
    }

    package static func == (a: G1Point, b: G1Point) -> Bool { a.p.equals(b.p) }
}

/// Scalars as 256-bit limbs: at most 32 bytes as they are, longer reduced modulo the group order.
/// Constant time in the bytes (the length is public).
enum ScalarLimbs {
    static func limbs(_ scalar: [UInt8], order: Limbs4) -> Limbs4 {
        if scalar.count <= 32 { return Montgomery.limbs(bigEndian: scalar[...]) }
        // Reduce modulo the order by schoolbook shift-and-subtract on bits (rare path).
        let hidden = Montgomery.barrier
        var acc: Limbs4 = (0, 0, 0, 0)
        for byte in scalar {
            for j in stride(from: 7, through: 0, by: -1) {
                // acc = 2·acc + bit, then reduce (acc < order < 2^254, so 2·acc + 1 < 2^255).
                acc = (
                    acc.0 << 1 | UInt64((byte >> UInt8(j)) & 1), acc.1 << 1 | acc.0 >> 63,
                    acc.2 << 1 | acc.1 >> 63, acc.3 << 1 | acc.2 >> 63
                )
                acc = Montgomery.reduceOnce(acc, order, barrier: hidden)
            }
        }
        return acc
    }
}
