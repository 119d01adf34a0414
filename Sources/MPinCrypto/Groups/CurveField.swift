/// The operations the point formulas need from a coordinate field (F_p for G1, F_p² for G2).
protocol CurveField: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    var isZero: Bool { get }
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
