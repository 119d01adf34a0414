/// A BN curve E: y² = x³ + B over F_p with its group G1 = E(F_p) of prime order r, as the
/// oracle sees it: textbook affine formulas over `GMPField`, no projective coordinates, no
/// windows, nothing shared with `MPinCrypto`.
///
/// Both parameter sets are typed in from the specification (docs/crypto.md §2.1):
/// p = 36u⁴+36u³+24u²+6u+1, r = 36u⁴+36u³+18u²+6u+1, B = 2, cofactor 1, generator (p−1, 1).
public struct GMPCurve: Sendable, CustomStringConvertible {
    /// A short name: `bn254cx` or `bn254`.
    public let name: String
    /// The BN parameter u (negative for both curves).
    public let u: GMPInteger
    /// The base field F_p.
    public let field: GMPField
    /// The scalar field F_r, r = #E(F_p).
    public let scalarField: GMPField
    /// The constant B of y² = x³ + B.
    public let b: GMPInteger
    /// The generator P of G1.
    public let generator: GMPPoint

    /// The field prime p.
    public var p: GMPInteger { field.modulus }
    /// The group order r.
    public var r: GMPInteger { scalarField.modulus }

    /// Creates a curve from hexadecimal parameters; the generator is checked to be on the curve.
    public init(
        name: String, u: String, p: String, r: String, b: UInt64,
        generatorX: String, generatorY: String
    ) {
        self.name = name
        self.u = GMPInteger(hex: u)!
        self.field = GMPField(modulus: GMPInteger(hex: p)!)
        self.scalarField = GMPField(modulus: GMPInteger(hex: r)!)
        self.b = GMPInteger(b)
        self.generator = .affine(x: GMPInteger(hex: generatorX)!, y: GMPInteger(hex: generatorY)!)
        precondition(isOnCurve(generator), "the generator of \(name) is not on the curve")
    }

    /// BN254CX, the CertiVox curve used by Milagro MFA: u = −0x4000000003C012B1.
    public static let bn254cx = GMPCurve(
        name: "bn254cx",
        u: "-0x4000000003C012B1",
        p: "0x2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3",
        r: "0x2400000008702a0db0bddf647a6366d2c43fd6ee0cc906cebe11c0a636eb1f6d",
        b: 2,
        generatorX: "0x2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b2",
        generatorY: "0x1")

    /// BN254, the Nogami curve: u = −0x4080000000000001 = −(2⁶² + 2⁵⁵ + 1).
    public static let bn254 = GMPCurve(
        name: "bn254",
        u: "-0x4080000000000001",
        p: "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
        r: "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
        b: 2,
        generatorX: "0x2523648240000001ba344d80000000086121000000000013a700000000000012",
        generatorY: "0x1")

    /// Both parameter sets.
    public static let all: [GMPCurve] = [.bn254cx, .bn254]

    /// The curve's name.
    public var description: String { name }

    // MARK: - Points

    /// x³ + B mod p, the right-hand side of the curve equation.
    public func rightHandSide(_ x: GMPInteger) -> GMPInteger {
        field.add(field.multiply(field.square(x), x), b)
    }

    /// True for O and for affine (x, y) with 0 ≤ x, y < p and y² ≡ x³ + B (mod p).
    public func isOnCurve(_ point: GMPPoint) -> Bool {
        guard case .affine(let x, let y) = point else { return true }
        let zero = GMPInteger()
        guard x >= zero, x < p, y >= zero, y < p else { return false }
        return field.square(y) == rightHandSide(x)
    }

    /// The affine point (x, y) when it lies on the curve (coordinates must already be in [0, p)).
    public func point(x: GMPInteger, y: GMPInteger) -> GMPPoint? {
        let candidate = GMPPoint.affine(x: x, y: y)
        return isOnCurve(candidate) ? candidate : nil
    }

    /// −P = (x, −y); −O = O.
    public func negate(_ point: GMPPoint) -> GMPPoint {
        guard case .affine(let x, let y) = point else { return .infinity }
        return .affine(x: x, y: field.negate(y))
    }

    /// 2P by the tangent rule: λ = 3x² / 2y, x₂ = λ² − 2x, y₂ = λ(x − x₂) − y; 2P = O when y = 0
    /// (a point of order 2; none exists on these curves since r is odd and the cofactor is 1).
    public func double(_ point: GMPPoint) -> GMPPoint {
        guard case .affine(let x, let y) = point else { return .infinity }
        guard let denominator = field.inverse(field.add(y, y)) else { return .infinity }
        let three = GMPInteger(3)
        let lambda = field.multiply(field.multiply(three, field.square(x)), denominator)
        let x2 = field.subtract(field.square(lambda), field.add(x, x))
        let y2 = field.subtract(field.multiply(lambda, field.subtract(x, x2)), y)
        return .affine(x: x2, y: y2)
    }

    /// P + Q by the chord rule: for x_P ≠ x_Q, λ = (y_Q − y_P)/(x_Q − x_P),
    /// x₃ = λ² − x_P − x_Q, y₃ = λ(x_P − x₃) − y_P. Special cases: O + Q = Q, P + O = P,
    /// P + (−P) = O, P + P = 2P.
    public func add(_ lhs: GMPPoint, _ rhs: GMPPoint) -> GMPPoint {
        guard case .affine(let x1, let y1) = lhs else { return rhs }
        guard case .affine(let x2, let y2) = rhs else { return lhs }
        if x1 == x2 {
            return y1 == y2 ? double(lhs) : .infinity
        }
        let lambda = field.multiply(field.subtract(y2, y1), field.inverse(field.subtract(x2, x1))!)
        let x3 = field.subtract(field.subtract(field.square(lambda), x1), x2)
        let y3 = field.subtract(field.multiply(lambda, field.subtract(x1, x3)), y1)
        return .affine(x: x3, y: y3)
    }

    /// P − Q = P + (−Q).
    public func subtract(_ lhs: GMPPoint, _ rhs: GMPPoint) -> GMPPoint { add(lhs, negate(rhs)) }

    /// k·P by left-to-right double-and-add over the bits of |k|, negating P when k < 0; 0·P = O.
    /// k is not reduced mod r (for points of G1 the result is the same either way).
    public func multiply(_ point: GMPPoint, by k: GMPInteger) -> GMPPoint {
        let base = k.signum < 0 ? negate(point) : point
        let magnitude = k.signum < 0 ? -k : k
        var accumulator = GMPPoint.infinity
        var index = magnitude.bitWidth - 1
        while index >= 0 {
            accumulator = double(accumulator)
            if magnitude.bit(index) { accumulator = add(accumulator, base) }
            index -= 1
        }
        return accumulator
    }

    /// k·P with k read as a big-endian unsigned integer of any length.
    public func multiply(_ point: GMPPoint, scalar bytes: [UInt8]) -> GMPPoint {
        multiply(point, by: GMPInteger(bigEndian: bytes))
    }

    // MARK: - Encoding (AMCL `ECP_toOctet` / `ECP_fromOctet`)

    /// `04 ‖ x ‖ y` (1 + 2·32 bytes) or, compressed, `02|03 ‖ x` where the prefix low bit is the
    /// parity of y; O encodes as the empty array (AMCL leaves it undefined).
    public func encode(_ point: GMPPoint, compressed: Bool = false) -> [UInt8] {
        guard case .affine(let x, let y) = point else { return [] }
        if compressed { return [y.isOdd ? 0x03 : 0x02] + field.bytes(x) }
        return [0x04] + field.bytes(x) + field.bytes(y)
    }

    /// Decodes `04 ‖ x ‖ y` or `02|03 ‖ x`; nil for any other length or prefix, a coordinate
    /// ≥ p, a point off the curve, or an x with x³ + B not a square. For the compressed form
    /// y = (x³ + B)^((p+1)/4), replaced by p − y when its parity differs from the prefix bit.
    public func decode(_ bytes: [UInt8]) -> GMPPoint? {
        let size = field.byteCount
        guard let prefix = bytes.first else { return nil }
        switch (prefix, bytes.count) {
        case (0x04, 1 + 2 * size):
            guard let x = field.element(bytes: Array(bytes[1...size])),
                let y = field.element(bytes: Array(bytes[(1 + size)...]))
            else { return nil }
            return point(x: x, y: y)
        case (0x02, 1 + size), (0x03, 1 + size):
            guard let x = field.element(bytes: Array(bytes[1...])),
                let root = field.squareRoot(rightHandSide(x))
            else { return nil }
            let y = root.isOdd == (prefix == 0x03) ? root : field.negate(root)
            return .affine(x: x, y: y)
        default:
            return nil
        }
    }
}
