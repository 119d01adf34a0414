import MPinCrypto
import OrderedJSON

/// Recomputes one test of one of our suites from its inputs, field by field (through `MPin`), and
/// says what its `result` and `expectedError` should be.
///
/// The M-Pin suites carry AMCL's key names, so the AMCL checkers (`MPinTwoPassChecker`) check
/// them; the one-pass suite adds Y = GET_Y(TIME_VALUE, (UT or U) || MESSAGE).
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
        var result: VectorResult
        var expectedError: String?
    }

    func check(_ block: AMCLBlock, groupType: String, parameters: [String: JSONValue]) -> Outcome {
        switch suite {
        case .mpinTwoPass, .mpinOnePass, .mpinFull: checkMPin(block)
        case .pairing: checkPairing(block, type: groupType)
        case .hashToG1: checkHash(block, type: groupType)
        case .encoding: checkEncoding(block, g2: parameters["group"]?.stringValue == "G2")
        case .accessNumber:
            checkAccessNumber(
                block, useChecksum: parameters["accessNumberUseCheckSum"] != .bool(false),
                digits: parameters["accessNumberDigits"]?.intValue ?? 7)
        case .pinMapping:
            checkPINMapping(block, mapping: PINMapping(rawValue: parameters["mapping"]?.stringValue ?? "") ?? .integer)
        }
    }

    // MARK: - M-Pin flows

    func checkMPin(_ block: AMCLBlock) -> Outcome {
        var ledger = MPinTwoPassChecker(curve: curve).check(block)
        let mpin = self.mpin
        if suite == .mpinOnePass {
            let date = ledger.integer("DATE") ?? 0
            let timeValue = ledger.integer("TIME_VALUE").flatMap { UInt32(exactly: $0) }
            let challenged = date != 0 ? ledger.bytes("UT") : ledger.bytes("U")
            let message = ledger.has("MESSAGE") ? ledger.bytes("MESSAGE") : []
            ledger.derive("Y", whenPresent(timeValue, challenged, message) {
                mpin.getY(timeValue: $0, message: $1 + $2)
            })
        }
        let output = block["SERVER_OUTPUT"].flatMap { Int($0.value) }
        var valid = output == 0
        if suite == .mpinFull {
            let ck = block["CLIENT_KEY"]?.value.lowercased(), sk = block["SERVER_KEY"]?.value.lowercased()
            valid = valid && ck != nil && ck == sk
        }
        let error: String? = valid ? nil : (output == -14 ? "MPIN_INVALID_POINT" : "MPIN_BAD_PIN")
        return Outcome(ledger: ledger, result: valid ? .valid : .invalid, expectedError: error)
    }

    // MARK: - Pairing

    func checkPairing(_ block: AMCLBlock, type: String) -> Outcome {
        var ledger = VectorFieldLedger(block: block)
        let mpin = self.mpin
        let q = mpin.g2Generator, p = mpin.g1Generator
        func g2(_ k: [UInt8]?) -> Computation<[UInt8]> { whenPresent(k) { mpin.g2Multiple(scalar: $0, inverse: false, g: q) } }
        func g1(_ k: [UInt8]?) -> Computation<[UInt8]> { whenPresent(k) { mpin.g1Multiple(scalar: $0, hashed: false, g: p) } }
        func multiple(_ key: String, of scalarKey: String, inG2: Bool) -> [UInt8]? {
            let k = ledger.bytes(scalarKey)
            return ledger.derive(key, inG2 ? g2(k) : g1(k))
        }
        switch type {
        case "PairingBilinearityTest":
            let aq = multiple("AQ", of: "A", inG2: true), bp = multiple("BP", of: "B", inG2: false)
            let abq = multiple("ABQ", of: "AB", inG2: true), abp = multiple("ABP", of: "AB", inG2: false)
            let e1 = ledger.derive("PAIRING", whenPresent(aq, bp) { mpin.pairing(g2: $0, g1: $1) })
            let e2 = ledger.derive("PAIRING_ABQ_P", whenPresent(abq) { mpin.pairing(g2: $0, g1: p) })
            let e3 = ledger.derive("PAIRING_Q_ABP", whenPresent(abp) { mpin.pairing(g2: q, g1: $0) })
            let holds = e1 != nil && e1 == e2 && e2 == e3
            return Outcome(ledger: ledger, result: holds ? .valid : .invalid, expectedError: holds ? nil : "relationFails")
        case "PairingProductTest":
            let aq1 = multiple("AQ1", of: "A1", inG2: true), bp1 = multiple("BP1", of: "B1", inG2: false)
            let aq2 = multiple("AQ2", of: "A2", inG2: true), bp2 = multiple("BP2", of: "B2", inG2: false)
            let g = ledger.derive("PAIRING_PRODUCT", whenPresent(aq1, bp1, aq2, bp2) {
                mpin.pairingProduct([($0, $1), ($2, $3)])
            })
            ledger.deriveText("PRODUCT_IS_ONE", whenPresent(g) { mpin.gtIsOne($0).map { $0 ? "true" : "false" } })
            return Outcome(ledger: ledger, result: g == nil ? .invalid : .valid, expectedError: g == nil ? "pointAtInfinity" : nil)
        default:
            let aq = multiple("AQ", of: "A", inG2: true), bp = multiple("BP", of: "B", inG2: false)
            let computed = whenPresent(aq, bp) { mpin.pairing(g2: $0, g1: $1) }
            guard case .value(let gt) = computed else {
                // A point that does not decode: the point at infinity (the only way a multiple of a generator fails).
                if ledger.has("PAIRING") { ledger.derive("PAIRING", .rejected("none: an input is the point at infinity")) }
                return Outcome(ledger: ledger, result: .invalid, expectedError: "pointAtInfinity")
            }
            ledger.derive("PAIRING", .value(gt))
            let degenerate = mpin.gtIsOne(gt) ?? true
            return Outcome(ledger: ledger, result: degenerate ? .invalid : .valid, expectedError: degenerate ? "degenerate" : nil)
        }
    }

    // MARK: - Hash to G1

    func checkHash(_ block: AMCLBlock, type: String) -> Outcome {
        var ledger = VectorFieldLedger(block: block)
        let mpin = self.mpin
        let id = ledger.bytes("MPIN_ID_HEX")
        let hcid = ledger.derive("HASH_MPIN_ID_HEX", whenPresent(id) { mpin.hashID($0) })
        var hashed = hcid
        if type == "TimePermitHashTest" {
            let date = ledger.integer("DATE").flatMap { UInt32(exactly: $0) }
            hashed = ledger.derive("HASH_DATE_ID", whenPresent(date, hcid) {
                mpin.hashID([UInt8($0 >> 24), UInt8(truncatingIfNeeded: $0 >> 16), UInt8(truncatingIfNeeded: $0 >> 8),
                             UInt8(truncatingIfNeeded: $0)] + $1)
            })
            ledger.derive("HT", whenPresent(date, hcid) { mpin.timePermitPoint(date: $0, hashedID: $1) })
        }
        let trace = whenPresent(hashed) { mpin.mapToG1Trace($0) }
        ledger.derive("MAP_X0", trace.map(\.firstCandidate))
        ledger.deriveInteger("MAP_INCREMENTS", trace.map(\.increments))
        if type == "TimePermitHashTest" {
            if ledger.has("HT") { ledger.derive("HT", trace.map(\.point)) }
        } else {
            ledger.derive("HID", trace.map(\.point))
        }
        return Outcome(ledger: ledger, result: .valid, expectedError: nil)
    }

    // MARK: - Encodings, access numbers, PINs

    func checkEncoding(_ block: AMCLBlock, g2: Bool) -> Outcome {
        var ledger = VectorFieldLedger(block: block)
        guard let encoding = ledger.bytes("ENCODING") else {
            return Outcome(ledger: ledger, result: .invalid, expectedError: nil)
        }
        switch g2 ? mpin.decodeG2(encoding) : mpin.decodeG1(encoding) {
        case .success(let point):
            ledger.derive("POINT", .value(point))
            return Outcome(ledger: ledger, result: .valid, expectedError: nil)
        case .failure(let error):
            if ledger.has("POINT") { ledger.derive("POINT", .rejected("none: \(error)")) }
            return Outcome(ledger: ledger, result: .invalid, expectedError: VectorGenerator.errorClass(error))
        }
    }

    func checkAccessNumber(_ block: AMCLBlock, useChecksum: Bool, digits: Int) -> Outcome {
        var ledger = VectorFieldLedger(block: block)
        let an = ledger.text("ACCESS_NUMBER") ?? ""
        if let check = AccessNumberRules.checkDigit(an) {
            ledger.deriveInteger("CHECK_DIGIT", .value(check))
        } else if ledger.has("CHECK_DIGIT") {
            ledger.deriveInteger("CHECK_DIGIT", .rejected("none: the first six characters are not six digits"))
        }
        let error = AccessNumberRules.verdict(an, useChecksum: useChecksum, digits: digits)
        return Outcome(ledger: ledger, result: error == nil ? .valid : .invalid, expectedError: error)
    }

    func checkPINMapping(_ block: AMCLBlock, mapping: PINMapping) -> Outcome {
        var ledger = VectorFieldLedger(block: block)
        let pin = ledger.text("PIN") ?? ""
        guard let value = mapping.scalar(for: pin) else {
            for key in ["PIN_VALUE", "MULTIPLIER"] where ledger.has(key) {
                ledger.deriveInteger(key, .rejected("none: the PIN does not map"))
            }
            return Outcome(ledger: ledger, result: .invalid, expectedError: "unmappable")
        }
        ledger.deriveInteger("PIN_VALUE", .value(Int(value)))
        ledger.deriveInteger("MULTIPLIER", .value(PINMappingRules.multiplier(value)))
        return Outcome(ledger: ledger, result: .valid, expectedError: nil)
    }
}
