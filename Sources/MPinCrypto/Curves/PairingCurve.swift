/// Four 64-bit limbs, least significant first.
package typealias Limbs4 = (UInt64, UInt64, UInt64, UInt64)

/// A BN pairing-friendly curve: the compile-time parameter of ``Fp``, ``Fr``, ``G1Point``, ...
///
/// Conforming types are the caseless enums ``BN254CX`` and ``BN254``. The underscored requirements
/// are the derived constants of `Scripts/gen_curve_constants.py` (Montgomery form, R = 2^256); they
/// are an implementation detail. The arithmetic is `package`: our own targets (the SDK, the backend,
/// the vector checks, the benchmarks) use it, a user of the package goes through the `MPin` facade.
package protocol PairingCurve: Sendable {
    static var id: CurveID { get }
    static var _absU: UInt64 { get }
    static var _p: Limbs4 { get }
    static var _pInv: UInt64 { get }
    static var _pOne: Limbs4 { get }
    static var _pR2: Limbs4 { get }
    static var _pMinus2: Limbs4 { get }
    static var _pMinus1Half: Limbs4 { get }
    static var _pPlus1Quarter: Limbs4 { get }
    static var _r: Limbs4 { get }
    static var _rInv: UInt64 { get }
    static var _rOne: Limbs4 { get }
    static var _rR2: Limbs4 { get }
    static var _rMinus2: Limbs4 { get }
    static var _amclRadix: Limbs4 { get }
    static var _g2x: (Limbs4, Limbs4) { get }
    static var _g2y: (Limbs4, Limbs4) { get }
    static var _frob1: (Limbs4, Limbs4) { get }
    static var _frob2: (Limbs4, Limbs4) { get }
    static var _frob3: (Limbs4, Limbs4) { get }
    static var _frob4: (Limbs4, Limbs4) { get }
    static var _frob5: (Limbs4, Limbs4) { get }
    static var _millerDigits: [Int8] { get }
    /// The Miller-loop lines of the G2 generator, prepared once (``Pairing/prepare(_:)``): SERVER_2
    /// pairs V with it at every login.
    static var _generatorLines: Pairing<Self>.PreparedLines { get }
    /// GLV on G1 (``ScalarDecomposition``): β (Montgomery form) and λ with (βx, y) = λ·(x, y).
    static var _glvBeta: Limbs4 { get }
    static var _glvLambda: Limbs4 { get }
    /// Babai rounding for k = k0 + k1·λ: the multipliers round(2^256·|β_j|/r) and the matrix rows
    /// -sign(β_j)·b_j (two's complement mod 2^256), the 4-bit windows |kᵢ| fits in, the signed 5-bit
    /// windows of the multiplication, and how many of its lowest windows need the complete addition
    /// (the script derives and checks them).
    static var _glvMultipliers: [Limbs4] { get }
    static var _glvMatrix: [[Limbs4]] { get }
    static var _glvWindows: Int { get }
    static var _glvSignedWindows: Int { get }
    static var _glvCompleteWindows: Int { get }
    /// The same for GLS on G2 and GT, k = k0 + k1·p + k2·p² + k3·p³ mod r.
    static var _glsMultipliers: [Limbs4] { get }
    static var _glsMatrix: [[Limbs4]] { get }
    static var _glsWindows: Int { get }
    static var _glsSignedWindows: Int { get }
    static var _glsCompleteWindows: Int { get }
}

/// BN254CX, the CertiVox curve of Milagro MFA: u = -0x4000000003C012B1 (docs/crypto.md §2.1).
package enum BN254CX: PairingCurve {}

/// BN254 (Nogami / Beuchat et al.): u = -(2^62 + 2^55 + 1) (docs/crypto.md §2.1).
package enum BN254: PairingCurve {}
