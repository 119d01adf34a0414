/// A point of an elliptic curve y² = x³ + B in affine coordinates, or the point at infinity O.
///
/// A plain value: the coordinates are integers in [0, p) and the curve arithmetic lives in
/// `GMPCurve`, which knows p and B. Equality is coordinate equality (O equals only O).
public enum GMPPoint: Sendable, Hashable, CustomStringConvertible {
    /// The point at infinity O, the neutral element of the group.
    case infinity
    /// The affine point (x, y).
    case affine(x: GMPInteger, y: GMPInteger)

    /// True for O.
    public var isInfinity: Bool {
        if case .infinity = self { return true }
        return false
    }

    /// The affine coordinates, or nil for O.
    public var coordinates: (x: GMPInteger, y: GMPInteger)? {
        if case .affine(let x, let y) = self { return (x, y) }
        return nil
    }

    /// `O` or `(0x…, 0x…)`.
    public var description: String {
        switch self {
        case .infinity: return "O"
        case .affine(let x, let y): return "(\(x), \(y))"
        }
    }
}
