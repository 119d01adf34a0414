import MPinCrypto

/// The suites of vectors the workbench generates, one file each (Wycheproof-shaped JSON).
public enum VectorSuite: String, Sendable, CaseIterable {
    case pairing
    case hashToG1 = "hash-to-g1"
    case mpinTwoPass = "mpin-two-pass"
    case mpinOnePass = "mpin-one-pass"
    case mpinFull = "mpin-full"
    case encoding
    case accessNumber = "access-number"
    case pinMapping = "pin-mapping"

    /// The file's `algorithm`.
    public var algorithm: String {
        switch self {
        case .pairing: "optimal-ate pairing e(Q, P)"
        case .hashToG1: "M-Pin hash to G1 (mapit)"
        case .mpinTwoPass: "M-Pin two-pass authentication"
        case .mpinOnePass: "M-Pin one-pass authentication"
        case .mpinFull: "M-Pin Full authenticated key agreement"
        case .encoding: "G1/G2 point encodings"
        case .accessNumber: "access-number checksum (CheckAccessNumber)"
        case .pinMapping: "PIN string to PIN integer"
        }
    }

    /// The `--count` used when none is given: random cases (the fixed edge cases come on top).
    public var defaultCount: Int {
        switch self {
        case .pairing: 12
        case .hashToG1: 24
        case .mpinTwoPass, .mpinOnePass: 24
        case .mpinFull: 12
        case .encoding: 4
        case .accessNumber: 20
        case .pinMapping: 20
        }
    }

    /// The flags that `vectors verify` recomputes: a test must carry exactly those of them that its
    /// recomputation gives. The others (`WorkedExample`, `Tampered`, `CheckValue10`, `Valid` of the
    /// access numbers) say where a test comes from, which its values cannot show.
    public var recomputedFlags: Set<String> {
        switch self {
        case .accessNumber: ["ChecksumDisabled", "SixDigitMode", "Empty", "NotDigits", "WrongLength"]
        case .pinMapping: ["Integer", "LegacyStringHash", "NegativeHash", "Unmappable"]
        default: Set(notes.keys)
        }
    }

    /// Whether the suite's values depend on the curve.
    public var dependsOnCurve: Bool { self != .accessNumber && self != .pinMapping }

    /// The flags this suite's tests may carry, with Wycheproof's `bugType` and a description.
    public var notes: [String: (bugType: String, description: String)] {
        var notes: [String: (String, String)] = [:]
        switch self {
        case .pairing:
            notes["KnownAnswer"] = (
                "BASIC", "e(A·Q, B·P) for random A, B: the 384-byte GT encoding (w-powers 0,3,1,4,2,5, each re, im)."
            )
            notes["Bilinearity"] = (
                "FUNCTIONALITY",
                "e(A·Q, B·P) = e(AB·Q, P) = e(Q, AB·P) with AB = A·B mod r; valid exactly when the three agree."
            )
            notes["WrongExponent"] = ("FUNCTIONALITY", "AB is A·B + 1 mod r, so the bilinearity relation must fail.")
            notes["NonDegenerate"] = ("BASIC", "e(Q, P) for the generators is not 1.")
            notes["PointAtInfinity"] = (
                "EDGE_CASE",
                "A scalar 0 or r gives the point at infinity, which has no AMCL encoding and must be refused."
            )
            notes["Product"] = ("FUNCTIONALITY", "e(A1·Q, B1·P)·e(A2·Q, B2·P) with one final exponentiation.")
            notes["ProductIsOne"] = (
                "EDGE_CASE", "B2 = −A1·B1/A2 mod r, so the product is 1 (the shape of SERVER_2's check)."
            )
        case .hashToG1:
            notes["HashId"] = ("BASIC", "HASH_ID(ID) = SHA256(ID) and H(ID) = mapit(HASH_ID).")
            notes["FirstCandidateNotOnCurve"] = (
                "EDGE_CASE", "x0 = OS2I(hash) mod p gives no point: mapit must increment x (MAP_INCREMENTS > 0)."
            )
            notes["TimePermitHash"] = (
                "BASIC", "The time-permit point HT = mapit(SHA256(be32(DATE) || HASH_ID(ID))) for a given date."
            )
            notes["EmptyId"] = ("EDGE_CASE", "The empty identity.")
        case .mpinTwoPass, .mpinOnePass, .mpinFull:
            notes["GoodPIN"] = ("BASIC", "PIN2 = PIN1: SERVER_2 accepts (SERVER_OUTPUT 0).")
            notes["WrongPIN"] = (
                "FUNCTIONALITY",
                "PIN2 ≠ PIN1: SERVER_2 returns MPIN_BAD_PIN (-19); E, F and KANGAROO = PIN2 − PIN1 (0 when the trap fails) are given."
            )
            notes["KangarooTrapFailed"] = (
                "EDGE_CASE", "The kangaroo trap failed: KANGAROO is 0 although the PIN is wrong."
            )
            notes["TimePermits"] = ("BASIC", "DATE ≠ 0: time permits TP1 + TP2, UT and HTID are used.")
            notes["NoTimePermits"] = ("BASIC", "DATE = 0: no time permit, no UT, no HTID.")
            if self == .mpinOnePass {
                notes["Message"] = ("FUNCTIONALITY", "Y = GET_Y(TIME_VALUE, (UT or U) || MESSAGE) with a message.")
            }
            if self == .mpinFull {
                notes["KeysMatch"] = ("BASIC", "CLIENT_KEY = SERVER_KEY (right PIN).")
                notes["KeysDiffer"] = ("FUNCTIONALITY", "CLIENT_KEY ≠ SERVER_KEY (wrong PIN): the key agreement fails.")
            }
        case .encoding:
            notes["Valid"] = ("BASIC", "A valid encoding; POINT is its uncompressed form.")
            notes["Compressed"] = (
                "FUNCTIONALITY", "A compressed G1 encoding 02/03 || x (prefix low bit = parity of y)."
            )
            notes["BadPrefix"] = ("EDGE_CASE", "The first byte is not 04 (65 bytes) or 02/03 (33 bytes).")
            notes["WrongLength"] = ("EDGE_CASE", "A length the group does not use (G1: 65 or 33, G2: 128).")
            notes["CoordinateOutOfRange"] = ("EDGE_CASE", "A coordinate ≥ p.")
            notes["NotOnCurve"] = (
                "EDGE_CASE", "The coordinates do not satisfy the curve equation (or x³ + b is not a square)."
            )
            notes["NotInSubgroup"] = (
                "EDGE_CASE",
                "A point of the twist outside G2. AMCL's ECP2_fromOctet does no subgroup check and would accept it."
            )
            notes["PointAtInfinity"] = (
                "EDGE_CASE",
                "The point at infinity (G1: the byte 00, G2: 128 zero bytes), which no M-Pin message may carry."
            )
        case .accessNumber:
            notes["Valid"] = ("BASIC", "A well-formed access number with the right check digit.")
            notes["Tampered"] = ("FUNCTIONALITY", "One digit of a valid access number changed.")
            notes["WrongLength"] = ("EDGE_CASE", "Not seven characters.")
            notes["NotDigits"] = ("EDGE_CASE", "A character that is not an ASCII digit (including non-ASCII digits).")
            notes["Empty"] = ("EDGE_CASE", "The empty string, always refused.")
            notes["CheckValue10"] = (
                "EDGE_CASE", "The raw checksum is 10: the client accepts check digit 0 (servers never issue it)."
            )
            notes["ChecksumDisabled"] = (
                "FUNCTIONALITY", "accessNumberUseCheckSum is false: any non-empty string passes."
            )
            notes["SixDigitMode"] = ("FUNCTIONALITY", "accessNumberDigits is not 7: any non-empty string passes.")
            notes["WorkedExample"] = ("BASIC", "A worked example of PROTOCOL §5.3.")
        case .pinMapping:
            notes["Integer"] = ("BASIC", "The decimal digits as an integer (at most 9 digits).")
            notes["LegacyStringHash"] = ("BASIC", "The C++ SDK's Java-style string hash, C remainder mod 10000.")
            notes["NegativeHash"] = (
                "EDGE_CASE", "The string hash wraps negative; the 14-bit multiplier is taken from the two's complement."
            )
            notes["Unmappable"] = ("EDGE_CASE", "No PIN integer: empty, non-digits or too long for the mapping.")
            notes["WorkedExample"] = ("BASIC", "A worked example of PROTOCOL §6.3.")
        }
        return notes.mapValues { (bugType: $0.0, description: $0.1) }
    }
}
