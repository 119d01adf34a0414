/// Which backend the server plays.
public enum BackendFlavour: String, Sendable, CaseIterable, Hashable {
    /// The open-source Milagro stack: RPS, D-TAs and demo RPA, time permits on, access numbers
    /// with a check digit.
    case milagro
    /// The MIRACL MFA platform: `/service`, `X-MIRACL-CID` required, no time permits, access codes
    /// from an authorize URL, codeStatus, authorization codes.
    case mfaPlatform = "mfa-platform"
}
