/// Which fields an M-Pin vector format carries beyond the two-pass core, and which of them its
/// vectors must have.
///
/// The core (enrolment, CLIENT_1 `U`/`UT`/`SEC`, `V` = CLIENT_2, `SERVER_OUTPUT`) is required in
/// every format (`MPinEnrolmentChecks` and `MPinTwoPassChecker` say which fields exactly). The
/// optional groups below are, per format, required, required once the vector has any of their
/// fields (the published files may carry extra values; once they do, the values those inputs
/// determine must all be there), or not part of the format at all (their fields are then unknown).
struct MPinVectorProfile: Sendable {
    enum Presence: Sendable, Equatable {
        case required
        case whenAnyPresent
        case notInFormat
    }

    /// How the challenge Y is obtained.
    enum Challenge: Sendable, Equatable {
        /// Y is an input (the two-pass server's random challenge).
        case input
        /// Y = GET_Y(TIME_VALUE, (UT or U) ‖ MESSAGE): the workbench's one-pass suite, where
        /// `TIME_VALUE` is a required input and `MESSAGE` an optional one.
        case getY
    }

    /// The format's name in messages.
    var format: String
    var challenge: Challenge = .input
    /// `HID`, and `HTID` when DATE ≠ 0 (SERVER_1).
    var serverOne: Presence
    /// `CLIENT_1_RC`.
    var clientReturnCode: Presence
    /// `E`, `F` and `KANGAROO` on a wrong PIN (SERVER_2's error values).
    var errorValues: Presence
    /// `PRECOMPUTE_G1`, `PRECOMPUTE_G2`.
    var precompute: Presence
    /// M-Pin Full: the inputs `R`, `W` and the outputs `Z`, `T`, `HASH_ALL`, `CLIENT_KEY`, `SERVER_KEY`.
    var fullKeys: Presence
    /// The one-pass client on the same inputs: the input `TIME_VALUE` and the outputs `ONEPASS_RC`,
    /// `ONEPASS_Y`, `ONEPASS_V`.
    var onePass: Presence

    static let serverOneKeys = ["HID", "HTID"]
    static let errorKeys = ["E", "F", "KANGAROO"]
    static let precomputeKeys = ["PRECOMPUTE_G1", "PRECOMPUTE_G2"]
    static let fullKeyKeys = ["R", "W", "Z", "T", "HASH_ALL", "CLIENT_KEY", "SERVER_KEY"]
    static let onePassKeys = ["TIME_VALUE", "ONEPASS_RC", "ONEPASS_Y", "ONEPASS_V"]

    /// AMCL's published two-pass files (`BN254_CX.txt`, `.json`): the core, plus any group a vector
    /// carries.
    static let published = MPinVectorProfile(
        format: VectorFormat.twoPass.rawValue, serverOne: .whenAnyPresent, clientReturnCode: .whenAnyPresent,
        errorValues: .whenAnyPresent, precompute: .whenAnyPresent, fullKeys: .whenAnyPresent, onePass: .whenAnyPresent)

    /// The `TEST` blocks of the AMCL-C generated file: every group.
    static let amclGenerated = MPinVectorProfile(
        format: VectorFormat.amclGenerated.rawValue, serverOne: .required, clientReturnCode: .required,
        errorValues: .required, precompute: .required, fullKeys: .required, onePass: .required)

    /// The workbench's M-Pin suites: SERVER_1 and the error values in each, the one-pass challenge
    /// in `mpin-one-pass`, PRECOMPUTE and the keys in `mpin-full`.
    static func suite(_ suite: VectorSuite) -> MPinVectorProfile {
        var profile = MPinVectorProfile(
            format: suite.rawValue, serverOne: .required, clientReturnCode: .notInFormat, errorValues: .required,
            precompute: .notInFormat, fullKeys: .notInFormat, onePass: .notInFormat)
        if suite == .mpinOnePass { profile.challenge = .getY }
        if suite == .mpinFull {
            profile.precompute = .required
            profile.fullKeys = .required
        }
        return profile
    }

    /// Whether a group's fields are read (nil: not part of the format) and whether its outputs are
    /// required, for a vector that has the keys `has` says.
    static func requirement(_ presence: Presence, keys: [String], has: (String) -> Bool) -> Bool? {
        switch presence {
        case .required: true
        case .whenAnyPresent: keys.contains(where: has)
        case .notInFormat: nil
        }
    }
}
