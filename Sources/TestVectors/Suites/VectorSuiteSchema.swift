import MPinCrypto
import OrderedJSON

/// The shape of one suite's files beyond the common envelope: the group types, each group's
/// parameters with the values the recomputation supports, and each data field's kind and range.
///
/// `vectors lint` checks files against it (every problem with its file, line and JSON path) and
/// `vectors verify` refuses to recompute a group whose parameters it rejects, instead of falling
/// back to a default. A range that holds one value is a parameter the M-Pin core fixes (`maxPIN`
/// 10000, `pinBits` 14): a file that says otherwise describes a computation the workbench does not
/// make, so it cannot be checked.
struct VectorSuiteSchema: Sendable {
    /// What a parameter or a data field may hold.
    enum Kind: Sendable, Equatable {
        case boolean
        /// A JSON integer in the range (`why` says where the range comes from).
        case integer(ClosedRange<Int>, why: String)
        /// A JSON integer, one of these.
        case integerIn([Int], why: String)
        /// A JSON string, one of these.
        case oneOf([String])
        /// A JSON string of hexadecimal digits, whole bytes (possibly empty).
        case hex
        /// Any JSON string.
        case text
    }

    let suite: VectorSuite
    /// The group types, in the order the generator writes them.
    let groupTypes: [String]
    /// The parameters every group has (the group-level `curve` is checked apart).
    let parameters: [(name: String, kind: Kind)]
    /// The data fields a test may have.
    let dataFields: [String: Kind]

    static let uint32 = Kind.integer(0...Int(UInt32.max), why: "an unsigned 32-bit value")
    static let pin = Kind.integer(0...(MPin.maxPIN - 1), why: "a PIN below maxPIN")
    /// How many times mapit may increment x: each try fails with probability about 1/2.
    static let maximumMapIncrements = 1000
    /// The access-number lengths a settings file may give (0 turns the check off).
    static let accessNumberDigits = 0...32

    init(_ suite: VectorSuite) {
        self.suite = suite
        var fields: [String: Kind] = [:]
        func hex(_ keys: String...) { for key in keys { fields[key] = .hex } }
        switch suite {
        case .pairing:
            groupTypes = [
                "PairingKnownAnswerTest", "PairingBilinearityTest", "PairingProductTest", "PairingDegeneracyTest",
            ]
            parameters = []
            hex(
                "A", "B", "AB", "A1", "B1", "A2", "B2", "AQ", "BP", "ABQ", "ABP", "AQ1", "BP1", "AQ2", "BP2",
                "PAIRING", "PAIRING_ABQ_P", "PAIRING_Q_ABP", "PAIRING_PRODUCT")
            fields["PRODUCT_IS_ONE"] = .boolean
        case .hashToG1:
            groupTypes = ["HashToG1Test", "TimePermitHashTest"]
            parameters = [("hash", .oneOf(["SHA-256"])), ("map", .oneOf(["mapit"]))]
            hex("MPIN_ID_HEX", "HASH_MPIN_ID_HEX", "HASH_DATE_ID", "MAP_X0", "HID", "HT")
            fields["DATE"] = Self.uint32
            fields["MAP_INCREMENTS"] = .integer(0...Self.maximumMapIncrements, why: "mapit's increments")
        case .mpinTwoPass, .mpinOnePass, .mpinFull:
            groupTypes = [
                suite == .mpinTwoPass ? "MPinTwoPassTest" : suite == .mpinOnePass ? "MPinOnePassTest" : "MPinFullTest"
            ]
            parameters = [
                ("timePermits", .boolean),
                ("pinBits", .integer(MPin.pinBits...MPin.pinBits, why: "PBLEN of the M-Pin core")),
                ("maxPIN", .integer(MPin.maxPIN...MPin.maxPIN, why: "MAXPIN of the M-Pin core")),
            ]
            hex(
                "MPIN_ID_HEX", "HASH_MPIN_ID_HEX", "MS1", "MS2", "SS1", "SS2", "SERVER_SECRET", "CS1", "CS2",
                "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT", "TOKEN", "X", "U", "UT", "SEC", "Y", "V", "HID", "HTID",
                "E", "F")
            fields["DATE"] = Self.uint32
            fields["PIN1"] = Self.pin
            fields["PIN2"] = Self.pin
            fields["SERVER_OUTPUT"] = .integerIn([0, -19, -14], why: "MPIN_OK, MPIN_BAD_PIN or MPIN_INVALID_POINT")
            fields["KANGAROO"] = .integer(-(MPin.maxPIN - 1)...(MPin.maxPIN - 1), why: "a PIN difference")
            if suite == .mpinOnePass {
                fields["TIME_VALUE"] = Self.uint32
                hex("MESSAGE")
            }
            if suite == .mpinFull {
                hex("PRECOMPUTE_G1", "PRECOMPUTE_G2", "R", "W", "Z", "T", "HASH_ALL", "CLIENT_KEY", "SERVER_KEY")
            }
        case .encoding:
            groupTypes = ["G1EncodingTest", "G2EncodingTest"]
            parameters = [("group", .oneOf(["G1", "G2"]))]
            hex("ENCODING", "POINT")
        case .accessNumber:
            groupTypes = ["AccessNumberTest"]
            parameters = [
                ("accessNumberUseCheckSum", .boolean),
                ("accessNumberDigits", .integer(Self.accessNumberDigits, why: "an access-number length")),
            ]
            fields["ACCESS_NUMBER"] = .text
            fields["CHECK_DIGIT"] = .integer(0...9, why: "a decimal digit")
        case .pinMapping:
            groupTypes = ["PINMappingTest"]
            parameters = [("mapping", .oneOf(PINMapping.allCases.map(\.rawValue)))]
            fields["PIN"] = .text
            fields["PIN_VALUE"] = .integer(Int(Int32.min)...Int(Int32.max), why: "a 32-bit PIN integer")
            fields["MULTIPLIER"] = .integer(0...((1 << MPin.pinBits) - 1), why: "the low pinBits bits")
        }
        dataFields = fields
    }

    /// Why `value` does not fit `kind`, or nil (a number no `Int` holds, such as `1e400`, fits no
    /// integer kind).
    static func problem(_ value: JSONValue, _ kind: Kind) -> String? {
        switch kind {
        case .boolean:
            return value.boolValue == nil ? "must be true or false" : nil
        case .integer(let range, let why):
            guard let n = value.intValue, range.contains(n) else {
                if range.count == 1 { return "must be \(range.lowerBound) (\(why))" }
                return "must be an integer in \(range.lowerBound)...\(range.upperBound) (\(why))"
            }
            return nil
        case .integerIn(let allowed, let why):
            guard let n = value.intValue, allowed.contains(n) else {
                return "must be one of \(allowed.map(String.init).joined(separator: ", ")) (\(why))"
            }
            return nil
        case .oneOf(let allowed):
            guard let text = value.stringValue, allowed.contains(text) else {
                return "must be "
                    + (allowed.count == 1
                        ? "\"\(allowed[0])\"" : "one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            return nil
        case .hex:
            guard let text = value.stringValue, Hex.decode(text) != nil else {
                return "must be a string of hexadecimal bytes"
            }
            return nil
        case .text:
            return value.stringValue == nil ? "must be a string" : nil
        }
    }

    /// The problems of one group's type and parameters, each with the member it is about
    /// (`curve` is the file's curve, nil for the suites that do not depend on one).
    func groupProblems(_ group: JSONValue, curve: String?) -> [(member: String, message: String)] {
        var problems: [(String, String)] = []
        let type = group["type"]?.stringValue
        if let type, !groupTypes.contains(type) {
            problems.append(
                (
                    "type",
                    "unknown group type \"\(type)\" for the \(suite.rawValue) suite (one of \(groupTypes.joined(separator: ", ")))"
                ))
        }
        var known: Set<String> = ["type", "source", "tests"]
        for (name, kind) in parameters {
            known.insert(name)
            guard let value = group[name] else {
                problems.append((name, "missing (a parameter of every \(suite.rawValue) group)"))
                continue
            }
            if let message = Self.problem(value, kind) { problems.append((name, message)) }
        }
        if suite.dependsOnCurve {
            known.insert("curve")
            if group["curve"]?.stringValue != curve {
                problems.append(
                    ("curve", group["curve"] == nil ? "missing" : "must be the file's curve \"\(curve ?? "?")\""))
            }
        }
        if suite == .encoding, let type, let g = group["group"]?.stringValue {
            if type == "G1EncodingTest" && g != "G1" || type == "G2EncodingTest" && g != "G2" {
                problems.append(("group", "\(type) decodes \(type.hasPrefix("G1") ? "G1" : "G2") points, not \(g)"))
            }
            if g == "G2" {
                known.insert("subgroupCheck")
                if group["subgroupCheck"]?.boolValue != true {
                    problems.append(
                        (
                            "subgroupCheck",
                            "must be true: the workbench's G2 decoder checks the subgroup, so a file for a decoder that does not cannot be checked"
                        ))
                }
            }
        }
        if let source = group["source"] {
            if source["name"]?.stringValue == nil || source["version"]?.stringValue == nil {
                problems.append(("source", "must be an object with a string name and version"))
            }
        } else {
            problems.append(("source", "missing"))
        }
        for member in group.objectMembers ?? [] where !known.contains(member.name) {
            problems.append((member.name, "unknown group member for the \(suite.rawValue) suite"))
        }
        return problems
    }
}

/// The meta keys of a test object; every other key is a data field.
enum VectorMetaKeys {
    static let test: Set<String> = ["tcId", "comment", "flags", "result", "expectedError"]
    static let group: Set<String> = ["type", "source", "tests"]
    static let root: Set<String> = [
        "algorithm", "schema", "formatVersion", "generatorVersion", "numberOfTests", "header", "notes", "testGroups",
        "suite", "curve", "seed", VectorShardInfo.member,
    ]
    static let schema = "mpin-workbench-vectors-v1"
    static let formatVersion = 1
}
