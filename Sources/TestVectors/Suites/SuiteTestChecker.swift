import MPinCrypto
import OrderedJSON

/// Recomputes one test of one of our suites from its inputs, field by field (through `MPin`), and
/// says what its `result`, `expectedError` and recomputable flags should be.
///
/// The M-Pin suites carry AMCL's key names, so the AMCL checker (`MPinTwoPassChecker`, with the
/// suite's profile) checks them; the one-pass suite's Y = GET_Y(TIME_VALUE, (UT or U) ‖ MESSAGE).
/// Every test's inputs are required and every output they determine must be present. The group's
/// parameters must have passed `VectorSuiteSchema.groupProblems` (the verifier does not recompute a
/// group whose parameters it rejects): nothing here falls back to a default.
struct SuiteTestChecker {
    let suite: VectorSuite
    let curve: CurveID
    let mpin: MPin

    init(suite: VectorSuite, curve: CurveID) {
        self.suite = suite
        self.curve = curve
        mpin = MPin(curve: curve)
    }

    struct Outcome {
        var ledger: VectorFieldLedger
        /// nil when the recomputation could not run (an input is missing or invalid).
        var result: VectorResult?
        var expectedError: String?
        /// The flags of `suite.recomputedFlags` the test must carry; nil when they cannot be told.
        var flags: Set<String>?

        init(ledger: VectorFieldLedger, result: VectorResult?, expectedError: String? = nil, flags: Set<String>?) {
            self.ledger = ledger
            self.result = result
            self.expectedError = expectedError
            self.flags = flags
        }
    }

    func check(_ block: AMCLBlock, groupType: String, parameters: [String: JSONValue]) -> Outcome {
        switch suite {
        case .mpinTwoPass, .mpinOnePass, .mpinFull:
            return checkMPin(block, timePermits: parameters["timePermits"]?.boolValue)
        case .pairing:
            return checkPairing(block, type: groupType)
        case .hashToG1:
            return checkHash(block, type: groupType)
        case .encoding:
            return checkEncoding(block, g2: parameters["group"]?.stringValue == "G2")
        case .accessNumber:
            guard let useChecksum = parameters["accessNumberUseCheckSum"]?.boolValue,
                let digits = parameters["accessNumberDigits"]?.intValue
            else {
                return Outcome(ledger: VectorFieldLedger(block: block, format: suite.rawValue), result: nil, flags: nil)
            }
            return checkAccessNumber(block, useChecksum: useChecksum, digits: digits)
        case .pinMapping:
            guard let mapping = parameters["mapping"]?.stringValue.flatMap(PINMapping.init(rawValue:)) else {
                return Outcome(ledger: VectorFieldLedger(block: block, format: suite.rawValue), result: nil, flags: nil)
            }
            return checkPINMapping(block, mapping: mapping)
        }
    }

    // MARK: - M-Pin flows

    func checkMPin(_ block: AMCLBlock, timePermits: Bool?) -> Outcome {
        let checked = MPinTwoPassChecker(curve: curve, profile: .suite(suite)).check(block)
        var ledger = checked.ledger
        if let date = checked.date, let timePermits, timePermits != (date != 0) {
            ledger.fail(
                field: "DATE", line: block["DATE"]?.line ?? block.line, expected: block["DATE"]?.value ?? "",
                actual: "DATE \(date) in a group with timePermits \(timePermits)")
        }
        guard let server = checked.serverResult, let date = checked.date else {
            return Outcome(ledger: ledger, result: nil, flags: nil)
        }
        var valid = server == .ok
        var flags: Set<String> = [date != 0 ? "TimePermits" : "NoTimePermits"]
        switch server {
        case .ok: flags.insert("GoodPIN")
        case .badPIN: flags.insert("WrongPIN")
        case .invalidPoint: break
        }
        if checked.kangaroo == 0 { flags.insert("KangarooTrapFailed") }
        if suite == .mpinOnePass, checked.hasMessage { flags.insert("Message") }
        if suite == .mpinFull {
            guard let clientKey = checked.clientKey, let serverKey = checked.serverKey else {
                return Outcome(ledger: ledger, result: nil, flags: nil)
            }
            valid = clientKey == serverKey
            flags.insert(valid ? "KeysMatch" : "KeysDiffer")
        }
        let error = valid ? nil : (server == .invalidPoint ? "MPIN_INVALID_POINT" : "MPIN_BAD_PIN")
        return Outcome(ledger: ledger, result: valid ? .valid : .invalid, expectedError: error, flags: flags)
    }

    // MARK: - Pairing

    func checkPairing(_ block: AMCLBlock, type: String) -> Outcome {
        var ledger = VectorFieldLedger(block: block, format: suite.rawValue)
        let mpin = self.mpin
        let q = mpin.g2Generator, p = mpin.g1Generator
        func g2(_ k: [UInt8]?) -> Computation<[UInt8]> {
            whenPresent(k) { mpin.g2Multiple(scalar: $0, inverse: false, g: q) }
        }
        func g1(_ k: [UInt8]?) -> Computation<[UInt8]> {
            whenPresent(k) { mpin.g1Multiple(scalar: $0, hashed: false, g: p) }
        }
        func multiple(_ key: String, of scalarKey: String, inG2: Bool) -> [UInt8]? {
            ledger.requireInput(scalarKey)
            let k = ledger.bytes(scalarKey)
            return ledger.derive(key, inG2 ? g2(k) : g1(k))
        }
        switch type {
        case "PairingBilinearityTest":
            let aq = multiple("AQ", of: "A", inG2: true), bp = multiple("BP", of: "B", inG2: false)
            let abq = multiple("ABQ", of: "AB", inG2: true), abp = multiple("ABP", of: "AB", inG2: false)
            let e1 = whenPresent(aq, bp) { mpin.pairing(g2: $0, g1: $1) }
            let e2 = whenPresent(abq) { mpin.pairing(g2: $0, g1: p) }
            let e3 = whenPresent(abp) { mpin.pairing(g2: q, g1: $0) }
            ledger.derive("PAIRING", e1)
            ledger.derive("PAIRING_ABQ_P", e2)
            ledger.derive("PAIRING_Q_ABP", e3)
            guard let v1 = e1.value, let v2 = e2.value, let v3 = e3.value else {
                return Outcome(ledger: ledger, result: nil, flags: nil)
            }
            let holds = v1 == v2 && v2 == v3
            return Outcome(
                ledger: ledger, result: holds ? .valid : .invalid, expectedError: holds ? nil : "relationFails",
                flags: holds ? ["Bilinearity"] : ["Bilinearity", "WrongExponent"])
        case "PairingProductTest":
            let aq1 = multiple("AQ1", of: "A1", inG2: true), bp1 = multiple("BP1", of: "B1", inG2: false)
            let aq2 = multiple("AQ2", of: "A2", inG2: true), bp2 = multiple("BP2", of: "B2", inG2: false)
            let product = whenPresent(aq1, bp1, aq2, bp2) { mpin.pairingProduct([($0, $1), ($2, $3)]) }
            let g = ledger.derive("PAIRING_PRODUCT", product)
            let isOne = whenPresent(g) { mpin.gtIsOne($0) }
            ledger.deriveText("PRODUCT_IS_ONE", isOne.map { $0 ? "true" : "false" })
            switch product {
            case .unavailable:
                return Outcome(ledger: ledger, result: nil, flags: nil)
            case .rejected:
                return Outcome(ledger: ledger, result: .invalid, expectedError: "pointAtInfinity", flags: ["Product"])
            case .value:
                return Outcome(
                    ledger: ledger, result: .valid,
                    flags: isOne.value == true ? ["Product", "ProductIsOne"] : ["Product"])
            }
        case "PairingKnownAnswerTest", "PairingDegeneracyTest":
            let known = type == "PairingKnownAnswerTest"
            let aq = multiple("AQ", of: "A", inG2: true), bp = multiple("BP", of: "B", inG2: false)
            let pairing = whenPresent(aq, bp) { mpin.pairing(g2: $0, g1: $1) }
            switch pairing {
            case .unavailable:
                if ledger.has("PAIRING") { ledger.derive("PAIRING", .unavailable) }
                return Outcome(ledger: ledger, result: nil, flags: nil)
            case .rejected:
                // A point that does not decode: the point at infinity (the only way a multiple of a generator fails).
                if ledger.has("PAIRING") {
                    ledger.derive("PAIRING", .rejected("none: an input is the point at infinity"))
                }
                return Outcome(
                    ledger: ledger, result: .invalid, expectedError: "pointAtInfinity",
                    flags: known ? ["KnownAnswer", "PointAtInfinity"] : ["PointAtInfinity"])
            case .value(let gt):
                ledger.derive("PAIRING", .value(gt))
                let degenerate = mpin.gtIsOne(gt) ?? true
                let flags: Set<String> = known ? ["KnownAnswer"] : degenerate ? [] : ["NonDegenerate"]
                return Outcome(
                    ledger: ledger, result: degenerate ? .invalid : .valid,
                    expectedError: degenerate ? "degenerate" : nil, flags: flags)
            }
        default:
            // An unknown type: `VectorSuiteSchema` reports it, nothing here can be recomputed.
            return Outcome(ledger: ledger, result: nil, flags: nil)
        }
    }

    // MARK: - Hash to G1

    func checkHash(_ block: AMCLBlock, type: String) -> Outcome {
        var ledger = VectorFieldLedger(block: block, format: suite.rawValue)
        let mpin = self.mpin
        let permits = type == "TimePermitHashTest"
        guard permits || type == "HashToG1Test" else { return Outcome(ledger: ledger, result: nil, flags: nil) }
        ledger.requireInput("MPIN_ID_HEX")
        let id = ledger.bytes("MPIN_ID_HEX")
        let hcid = ledger.derive("HASH_MPIN_ID_HEX", whenPresent(id) { mpin.hashID($0) })
        var hashed = hcid
        if permits {
            ledger.requireInput("DATE")
            let date = ledger.uint32("DATE")
            hashed = ledger.derive(
                "HASH_DATE_ID",
                whenPresent(date, hcid) {
                    mpin.hashID(
                        [
                            UInt8($0 >> 24), UInt8(truncatingIfNeeded: $0 >> 16), UInt8(truncatingIfNeeded: $0 >> 8),
                            UInt8(truncatingIfNeeded: $0),
                        ] + $1)
                })
            ledger.derive("HT", whenPresent(date, hcid) { mpin.timePermitPoint(date: $0, hashedID: $1) })
        }
        let trace = whenPresent(hashed) { mpin.mapToG1Trace($0) }
        ledger.derive("MAP_X0", trace.map(\.firstCandidate))
        ledger.deriveInteger("MAP_INCREMENTS", trace.map(\.increments))
        if permits {
            if ledger.has("HT") { ledger.derive("HT", trace.map(\.point)) }
        } else {
            ledger.derive("HID", trace.map(\.point))
        }
        guard let increments = trace.value?.increments, let id else {
            return Outcome(ledger: ledger, result: nil, flags: nil)
        }
        var flags: Set<String> = [permits ? "TimePermitHash" : "HashId"]
        if increments > 0 { flags.insert("FirstCandidateNotOnCurve") }
        if id.isEmpty { flags.insert("EmptyId") }
        return Outcome(ledger: ledger, result: .valid, flags: flags)
    }

    // MARK: - Encodings, access numbers, PINs

    func checkEncoding(_ block: AMCLBlock, g2: Bool) -> Outcome {
        var ledger = VectorFieldLedger(block: block, format: suite.rawValue)
        ledger.requireInput("ENCODING")
        guard let encoding = ledger.bytes("ENCODING") else {
            if ledger.has("POINT") { ledger.derive("POINT", .unavailable) }
            return Outcome(ledger: ledger, result: nil, flags: nil)
        }
        switch g2 ? mpin.decodeG2(encoding) : mpin.decodeG1(encoding) {
        case .success(let point):
            ledger.derive("POINT", .value(point))
            return Outcome(ledger: ledger, result: .valid, flags: [encoding.count == 33 ? "Compressed" : "Valid"])
        case .failure(let error):
            if ledger.has("POINT") { ledger.derive("POINT", .rejected("none: \(error)")) }
            let errorClass = VectorGenerator.errorClass(error)
            return Outcome(
                ledger: ledger, result: .invalid, expectedError: errorClass,
                flags: [errorClass.prefix(1).uppercased() + errorClass.dropFirst()])
        }
    }

    func checkAccessNumber(_ block: AMCLBlock, useChecksum: Bool, digits: Int) -> Outcome {
        var ledger = VectorFieldLedger(block: block, format: suite.rawValue)
        ledger.requireInput("ACCESS_NUMBER")
        guard let an = ledger.text("ACCESS_NUMBER") else { return Outcome(ledger: ledger, result: nil, flags: nil) }
        if let check = AccessNumberRules.checkDigit(an) {
            ledger.deriveInteger("CHECK_DIGIT", .value(check))
        } else if ledger.has("CHECK_DIGIT") {
            ledger.deriveInteger("CHECK_DIGIT", .rejected("none: the first six characters are not six digits"))
        }
        var flags: Set<String> = []
        if !useChecksum { flags.insert("ChecksumDisabled") }
        if digits != 7 { flags.insert("SixDigitMode") }
        switch AccessNumber.problem(with: an) {
        case .empty: flags.insert("Empty")
        case .notDigits: flags.insert("NotDigits")
        case .wrongLength: flags.insert("WrongLength")
        case .wrongCheckDigit, nil: break
        }
        let error = AccessNumberRules.verdict(an, useChecksum: useChecksum, digits: digits)
        return Outcome(ledger: ledger, result: error == nil ? .valid : .invalid, expectedError: error, flags: flags)
    }

    func checkPINMapping(_ block: AMCLBlock, mapping: PINMapping) -> Outcome {
        var ledger = VectorFieldLedger(block: block, format: suite.rawValue)
        ledger.requireInput("PIN")
        guard let pin = ledger.text("PIN") else { return Outcome(ledger: ledger, result: nil, flags: nil) }
        let mappingFlag = mapping == .integer ? "Integer" : "LegacyStringHash"
        guard let value = mapping.scalar(for: pin) else {
            for key in ["PIN_VALUE", "MULTIPLIER"] where ledger.has(key) {
                ledger.deriveInteger(key, .rejected("none: the PIN does not map"))
            }
            return Outcome(
                ledger: ledger, result: .invalid, expectedError: "unmappable", flags: [mappingFlag, "Unmappable"])
        }
        ledger.deriveInteger("PIN_VALUE", .value(Int(value)))
        ledger.deriveInteger("MULTIPLIER", .value(PINMappingRules.multiplier(value)))
        return Outcome(
            ledger: ledger, result: .valid, flags: value < 0 ? [mappingFlag, "NegativeHash"] : [mappingFlag])
    }
}
