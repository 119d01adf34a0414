import ReferenceBackend

/// Whose behaviour the graded backend's correct answers follow (`conform --client --profile`):
/// the reference backend's profiles with the Milagro flavour, and the MFA platform's flavour on
/// the default profile (docs/backend.md, "Profiles"), so that a client written for one server
/// generation is graded against it.
public enum ClientProfile: String, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case `default`
    case milagroOSS = "milagro-oss"
    case milagroHostedV3 = "milagro-hosted-v3"
    /// The MIRACL MFA platform's flavour (no time permits, access codes, `X-MIRACL-CID`).
    case mfaPlatform = "mfa-platform"

    public var description: String { rawValue }

    public var flavour: BackendFlavour { self == .mfaPlatform ? .mfaPlatform : .milagro }

    public var backendProfile: BackendProfile {
        switch self {
        case .default, .mfaPlatform: .default
        case .milagroOSS: .milagroOSS
        case .milagroHostedV3: .milagroHostedV3
        }
    }

    /// The client id the MFA platform's flavour expects (`MPIN_CLIENT_ID`).
    public static let platformClientID = "conform-client"
}
