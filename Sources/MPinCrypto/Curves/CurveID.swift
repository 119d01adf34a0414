/// The two BN parameter sets of AMCL that M-Pin deployments use.
///
/// * ``bn254cx``: the CertiVox curve, u = -0x4000000003C012B1, used by Milagro MFA (the default).
/// * ``bn254``: the Nogami / Beuchat et al. curve, u = -(2^62 + 2^55 + 1).
///
/// Both are BN curves E: y² = x³ + 2 over F_p with a D-type sextic twist E': y² = x³ + (1 - i)
/// (docs/crypto.md §2).
public enum CurveID: String, Sendable, CaseIterable, Hashable {
    case bn254cx
    case bn254
}
