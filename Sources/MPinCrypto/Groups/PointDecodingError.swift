/// Why a byte string is not a valid point encoding (docs/crypto.md §3).
public enum PointDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The encoding has a length the group does not use (G1: 65 or 33, G2: 128).
    case wrongLength(expected: [Int], actual: Int)
    /// The first byte of a G1 encoding is not 0x04 (uncompressed) or 0x02/0x03 (compressed).
    case badPrefix(UInt8)
    /// A coordinate is not below p.
    case coordinateOutOfRange
    /// The coordinates do not satisfy the curve equation (or, compressed, x³ + b is not a square).
    case notOnCurve
    /// A G2 point on the twist but outside the subgroup of order r.
    case notInSubgroup
    /// The encoding of the point at infinity, which no M-Pin message may carry.
    case pointAtInfinity

    public var description: String {
        switch self {
        case .wrongLength(let expected, let actual):
            return "wrong length \(actual) (expected \(expected.map(String.init).joined(separator: " or ")) bytes)"
        case .badPrefix(let b):
            return "bad prefix byte 0x" + Hex.encode([b])
        case .coordinateOutOfRange: return "coordinate not below p"
        case .notOnCurve: return "point not on the curve"
        case .notInSubgroup: return "point not in the subgroup of order r"
        case .pointAtInfinity: return "point at infinity"
        }
    }
}
