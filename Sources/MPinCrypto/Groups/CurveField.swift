/// The operations the point formulas need from a coordinate field (F_p for G1, F_p² for G2). All
/// are constant time except `==` and ``isZero``.
protocol CurveField: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    /// Zero, as a `Bool`: for public values.
    var isZero: Bool { get }
    /// All ones when zero, else zero, without a branch.
    var zeroMask: UInt64 { get }
    /// b where `mask` is all ones, a where it is zero, without a branch.
    static func select(_ a: Self, _ b: Self, mask: UInt64) -> Self
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    func squared() -> Self
    func doubled() -> Self
    var inverseOrZero: Self { get }
}

extension Fp: CurveField {}
extension Fp2: CurveField {}
