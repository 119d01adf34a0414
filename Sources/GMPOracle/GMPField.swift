/// The prime field F_m = ℤ/mℤ for an odd prime m (the base field p or the scalar field r).
///
/// Elements are plain `GMPInteger`s. Every operation reduces its inputs mod m first and returns
/// the least non-negative residue in [0, m), so callers may pass any integer.
public struct GMPField: Sendable {
    /// The prime modulus m.
    public let modulus: GMPInteger

    /// (m + 1) / 4, the square-root exponent when m ≡ 3 (mod 4); nil otherwise.
    private let sqrtExponent: GMPInteger?

    /// Creates F_m. `modulus` must be an odd prime (checked with a probable-prime test).
    public init(modulus: GMPInteger) {
        precondition(
            modulus > GMPInteger(2) && modulus.isOdd && modulus.isProbablePrime(),
            "the modulus of a GMPField must be an odd prime")
        self.modulus = modulus
        self.sqrtExponent =
            modulus.modulo(GMPInteger(4)) == GMPInteger(3)
            ? (modulus + GMPInteger(1)) / GMPInteger(4) : nil
    }

    /// The number of bytes of a canonical encoding: ⌈bits(m) / 8⌉ (32 for both curves).
    public var byteCount: Int { (modulus.bitWidth + 7) / 8 }

    // MARK: - Elements and encodings

    /// x mod m.
    public func element(_ x: GMPInteger) -> GMPInteger { x.modulo(modulus) }

    /// The element with canonical big-endian encoding `bytes`: exactly `byteCount` bytes whose
    /// value is < m; nil otherwise (no silent reduction).
    public func element(bytes: [UInt8]) -> GMPInteger? {
        guard bytes.count == byteCount else { return nil }
        let x = GMPInteger(bigEndian: bytes)
        return x < modulus ? x : nil
    }

    /// OS2I(bytes) mod m, for big-endian bytes of any length.
    public func reducing(bytes: [UInt8]) -> GMPInteger {
        GMPInteger(bigEndian: bytes).modulo(modulus)
    }

    /// The canonical `byteCount`-byte big-endian encoding of x mod m.
    public func bytes(_ x: GMPInteger) -> [UInt8] {
        element(x).bigEndianBytes(count: byteCount)!
    }

    // MARK: - Arithmetic

    /// a + b mod m.
    public func add(_ a: GMPInteger, _ b: GMPInteger) -> GMPInteger { (a + b).modulo(modulus) }

    /// a − b mod m.
    public func subtract(_ a: GMPInteger, _ b: GMPInteger) -> GMPInteger { (a - b).modulo(modulus) }

    /// −a mod m.
    public func negate(_ a: GMPInteger) -> GMPInteger { (-a).modulo(modulus) }

    /// a · b mod m.
    public func multiply(_ a: GMPInteger, _ b: GMPInteger) -> GMPInteger { (a * b).modulo(modulus) }

    /// a² mod m.
    public func square(_ a: GMPInteger) -> GMPInteger { (a * a).modulo(modulus) }

    /// aᵉ mod m for an exponent e ≥ 0 (a⁰ = 1, including 0⁰).
    public func power(_ a: GMPInteger, _ e: GMPInteger) -> GMPInteger {
        element(a).power(e, modulo: modulus)
    }

    /// aᵉ mod m with e read as a big-endian unsigned integer of any length.
    public func power(_ a: GMPInteger, exponent bytes: [UInt8]) -> GMPInteger {
        power(a, GMPInteger(bigEndian: bytes))
    }

    /// a⁻¹, the x with a·x ≡ 1 (mod m); nil when a ≡ 0.
    public func inverse(_ a: GMPInteger) -> GMPInteger? { element(a).inverse(modulo: modulus) }

    /// The Legendre symbol (a / m): 0 when a ≡ 0, 1 when a is a non-zero square, −1 otherwise.
    public func legendre(_ a: GMPInteger) -> Int { element(a).jacobi(modulus) }

    /// True when a is a non-zero square, i.e. `legendre(a) == 1` (zero does not count).
    public func isSquare(_ a: GMPInteger) -> Bool { legendre(a) == 1 }

    /// True when m ≡ 3 (mod 4), the case `squareRoot` supports.
    public var hasSimpleSquareRoot: Bool { sqrtExponent != nil }

    /// A square root of a for m ≡ 3 (mod 4): y = a^((m+1)/4), returned when y² ≡ a (then
    /// y is a square itself, the "principal" root); nil when a is not a square. √0 = 0.
    public func squareRoot(_ a: GMPInteger) -> GMPInteger? {
        guard let exponent = sqrtExponent else {
            preconditionFailure("squareRoot needs a modulus m ≡ 3 (mod 4)")
        }
        let x = element(a)
        let y = x.power(exponent, modulo: modulus)
        return square(y) == x ? y : nil
    }
}
