import MPinCrypto

/// Checks two-pass M-Pin vectors, field by field, through the `MPin` facade: AMCL's published
/// files, the `TEST` blocks of the AMCL-C generated file and the workbench's M-Pin suites, each
/// with its `MPinVectorProfile`.
///
/// The chain (docs/crypto.md §5): enrolment (`MPinEnrolmentChecks`), then with the required inputs X,
/// Y (or, in the one-pass suite, TIME_VALUE and an optional MESSAGE) and PIN2:
/// * `U`, `UT` (DATE ≠ 0), `SEC` = CLIENT_1(DATE, ID, X, PIN2, TOKEN, TIME_PERMIT), `CLIENT_1_RC`
///   its return code; in the one-pass suite `Y` = GET_Y(TIME_VALUE, (UT or U) ‖ MESSAGE);
/// * `V` = CLIENT_2(X, Y, SEC);
/// * `HID`, `HTID` = SERVER_1(DATE, ID);
/// * `SERVER_OUTPUT` = SERVER_2 (0, or -19 on a wrong PIN; required unless the vector gives the
///   shares without master secrets, as milagro-crypto-js's files do), with `E`, `F` its error
///   values and `KANGAROO` = KANGAROO(E, F) = PIN2 − PIN1 (0 when the kangaroo trap fails);
/// * `PRECOMPUTE_G1/G2` = PRECOMPUTE(TOKEN, HASH_ID);
/// * M-Pin Full: `Z` = R·H(ID), `T` = W·(HTID or HID), `HASH_ALL`, `CLIENT_KEY`, `SERVER_KEY`;
/// * `ONEPASS_Y`, `ONEPASS_V` (and `ONEPASS_RC`) = the one-pass client at `TIME_VALUE`, same X and PIN2.
///
/// Every value the format carries and the inputs determine must be present (see the profile); the
/// published two-pass files stop at `SERVER_OUTPUT`. In the shares layout of milagro-crypto-js's
/// two-pass files (`test/test_MPIN.js` checks U, UT and V of them) `SEC` and `SERVER_OUTPUT` are
/// not part of the format: compared when a vector has them, never demanded.
struct MPinTwoPassChecker {
    let mpin: MPin
    let profile: MPinVectorProfile
    let layout: MPinEnrolment.Layout

    /// - Parameter layout: the file's layout (`MPinEnrolment.Layout.of`); master secrets for the
    ///   AMCL-C generated file and the workbench's suites.
    init(curve: CurveID, profile: MPinVectorProfile = .published, layout: MPinEnrolment.Layout = .masterSecrets) {
        mpin = MPin(curve: curve)
        self.profile = profile
        self.layout = layout
    }

    /// The ledger, and what the recomputation says about the flow (nil where it could not run).
    struct Checked {
        var ledger: VectorFieldLedger
        var date: UInt32?
        var serverResult: MPin.Server2Result?
        /// KANGAROO(E, F) on a wrong PIN.
        var kangaroo: Int?
        var clientKey: [UInt8]?
        var serverKey: [UInt8]?
        /// Whether the vector has a `MESSAGE` (one-pass suite).
        var hasMessage = false
    }

    func check(_ block: AMCLBlock) -> Checked {
        var ledger = VectorFieldLedger(block: block, format: profile.format)
        ledger.label("TEST", "test_no", "TEST_NO")
        let mpin = self.mpin
        let enrolment = MPinEnrolmentChecks.check(&ledger, mpin: mpin, layout: layout)
        let date = enrolment.date
        let id = enrolment.id
        let hashedID = enrolment.hashedID
        let pin2 = enrolment.pin2
        let token = enrolment.token
        let permit = enrolment.permitArgument
        let serverSecret = enrolment.serverSecret
        func requirement(_ presence: MPinVectorProfile.Presence, _ keys: [String]) -> Bool? {
            MPinVectorProfile.requirement(presence, keys: keys, has: ledger.has)
        }
        /// A group's output: compared when the format has the group, else only computed.
        func output(_ key: String, _ computed: Computation<[UInt8]>, _ required: Bool?) -> [UInt8]? {
            guard let required else { return computed.value }
            return ledger.derive(key, computed, required: required)
        }

        // CLIENT_1.
        ledger.requireInput("X")
        let x = ledger.bytes("X")
        let client1 = whenPresent(id, x, pin2, token, permit, date) {
            mpin.client1(date: $5, id: $0, x: $1, pin: $2, token: $3, permit: $4)
        }
        if let required = requirement(profile.clientReturnCode, ["CLIENT_1_RC"]) {
            ledger.deriveInteger("CLIENT_1_RC", Self.returnCode(client1), required: required)
        }
        let u = ledger.derive("U", client1.map(\.u))
        let ut = ledger.deriveUT(date: date, client1.flatMap(rejection: "none: CLIENT_1 gave no UT") { $0.ut })
        let utArgument = Self.dateArgument(ut, date: date)
        let sec = ledger.derive("SEC", client1.map(\.sec), required: layout == .masterSecrets)

        // The challenge and CLIENT_2.
        let y: [UInt8]?
        var hasMessage = false
        switch profile.challenge {
        case .input:
            ledger.requireInput("Y")
            y = ledger.bytes("Y")
        case .getY:
            ledger.requireInput("TIME_VALUE")
            let timeValue = ledger.uint32("TIME_VALUE")
            hasMessage = ledger.has("MESSAGE")
            let message: [UInt8]? = hasMessage ? ledger.bytes("MESSAGE") : []
            let challenged = date.flatMap { $0 != 0 ? ut : u }
            y = ledger.derive(
                "Y",
                whenPresent(timeValue, challenged, message) {
                    mpin.getY(timeValue: $0, message: $1 + $2)
                })
        }
        let v = ledger.derive("V", whenPresent(x, y, sec) { mpin.client2(x: $0, y: $1, sec: $2) })

        // SERVER_1, SERVER_2 with its error values, KANGAROO.
        let serverOne = requirement(profile.serverOne, MPinVectorProfile.serverOneKeys)
        let server1 = whenPresent(id, date) { mpin.server1(date: $1, id: $0) }
        let hid = output("HID", server1.map(\.hid), serverOne)
        let htid: [UInt8]?
        switch date {
        case .some(0):
            if serverOne != nil, ledger.has("HTID") { ledger.derive("HTID", .rejected("none: DATE = 0 gives no HTID")) }
            htid = nil
        case .some:
            htid = output("HTID", server1.flatMap(rejection: "none: SERVER_1 gave no HTID") { $0.htid }, serverOne)
        case nil:
            htid = output("HTID", .unavailable, serverOne)
        }
        let htidArgument = Self.dateArgument(htid, date: date)
        let errorValues = requirement(profile.errorValues, MPinVectorProfile.errorKeys)
        let wantsErrors = errorValues == true
        let server2 = whenPresent(hid, htidArgument, y, serverSecret, u, utArgument, v, date) {
            mpin.server2(
                date: $7, hid: $0, htid: $1, y: $2, serverSecret: $3, u: $4, ut: $5, v: $6, errorValues: wantsErrors)
        }
        ledger.deriveInteger(
            "SERVER_OUTPUT", server2.map(Self.returnCode), required: enrolment.layout == .masterSecrets)
        var kangaroo: Int?
        if let errorValues {
            switch server2 {
            case .value(.badPIN(let computedE, let computedF)):
                let e = ledger.derive(
                    "E", Computation(computedE, rejection: "none: SERVER_2 gave no E"), required: errorValues)
                let f = ledger.derive(
                    "F", Computation(computedF, rejection: "none: SERVER_2 gave no F"), required: errorValues)
                kangaroo = ledger.deriveInteger(
                    "KANGAROO", whenPresent(e, f) { mpin.kangaroo(e: $0, f: $1) },
                    required: errorValues)
            case .value(let result):
                let why = "none: SERVER_2 returned \(Self.returnCode(result)), not MPIN_BAD_PIN"
                if ledger.has("E") { ledger.derive("E", .rejected(why)) }
                if ledger.has("F") { ledger.derive("F", .rejected(why)) }
                if ledger.has("KANGAROO") { ledger.deriveInteger("KANGAROO", .rejected(why)) }
            case .rejected, .unavailable:
                if ledger.has("E") { ledger.derive("E", .unavailable) }
                if ledger.has("F") { ledger.derive("F", .unavailable) }
                if ledger.has("KANGAROO") { ledger.deriveInteger("KANGAROO", .unavailable) }
            }
        }

        // PRECOMPUTE and M-Pin Full.
        let precompute = requirement(profile.precompute, MPinVectorProfile.precomputeKeys)
        let fullKeys = requirement(profile.fullKeys, MPinVectorProfile.fullKeyKeys)
        // Two pairings: only when a value of the vector needs them.
        let precomputed =
            precompute == true || fullKeys == true
            ? whenPresent(token, hashedID) { mpin.precompute(token: $0, hashedID: $1) } : .unavailable
        let g1 = output("PRECOMPUTE_G1", precomputed.map(\.g1), precompute)
        let g2 = output("PRECOMPUTE_G2", precomputed.map(\.g2), precompute)
        var clientKey: [UInt8]?
        var serverKey: [UInt8]?
        if let required = fullKeys {
            if required {
                ledger.requireInput("R")
                ledger.requireInput("W")
            }
            let r = ledger.bytes("R")
            let w = ledger.bytes("W")
            let base = date.flatMap { $0 != 0 ? htid : hid }
            let z = ledger.derive(
                "Z", whenPresent(r, hashedID) { mpin.g1Multiple(scalar: $0, hashed: true, g: $1) },
                required: required)
            let t = ledger.derive(
                "T", whenPresent(w, base) { mpin.g1Multiple(scalar: $0, hashed: false, g: $1) },
                required: required)
            let h = ledger.derive(
                "HASH_ALL",
                whenPresent(hashedID, u, utArgument, v, y, z, t) {
                    mpin.hashAll(hashedID: $0, u: $1, ut: $2, v: $3, y: $4, z: $5, t: $6)
                }, required: required)
            let computedClientKey = whenPresent(g1, g2, pin2, r, x, h, t) {
                mpin.clientKey(g1: $0, g2: $1, pin: $2, r: $3, x: $4, h: $5, t: $6)
            }
            let computedServerKey = whenPresent(z, serverSecret, w, h, hid, u, utArgument) {
                mpin.serverKey(z: $0, serverSecret: $1, w: $2, h: $3, hid: $4, u: $5, ut: $6)
            }
            ledger.derive("CLIENT_KEY", computedClientKey, required: required)
            ledger.derive("SERVER_KEY", computedServerKey, required: required)
            clientKey = computedClientKey.value
            serverKey = computedServerKey.value
        }

        // The one-pass client on the same inputs.
        if let required = requirement(profile.onePass, MPinVectorProfile.onePassKeys) {
            if required { ledger.requireInput("TIME_VALUE") }
            let timeValue = ledger.uint32("TIME_VALUE")
            let onePass = whenPresent(id, x, pin2, token, permit, timeValue, date) {
                mpin.client(
                    date: $6, id: $0, x: $1, pin: $2, token: $3, permit: $4, message: nil, timeValue: $5)
            }
            ledger.deriveInteger("ONEPASS_RC", Self.returnCode(onePass), required: required)
            ledger.derive("ONEPASS_Y", onePass.map(\.y), required: required)
            ledger.derive("ONEPASS_V", onePass.map(\.v), required: required)
        }
        return Checked(
            ledger: ledger, date: date, serverResult: server2.value, kangaroo: kangaroo, clientKey: clientKey,
            serverKey: serverKey, hasMessage: hasMessage)
    }

    /// A value that exists only when DATE ≠ 0 (UT, HTID, the permit) as a step's argument: none
    /// for DATE = 0, the value otherwise; the outer nil means "missing" (DATE itself included).
    static func dateArgument(_ value: [UInt8]?, date: UInt32?) -> [UInt8]?? {
        guard let date else { return nil }
        return date == 0 ? .some(nil) : value.map { Optional($0) }
    }

    /// AMCL's return code for a client step: 0, or MPIN_INVALID_POINT (-14) when it refused its inputs.
    static func returnCode<T>(_ computation: Computation<T>) -> Computation<Int> {
        switch computation {
        case .unavailable: .unavailable
        case .rejected: .value(-14)
        case .value: .value(0)
        }
    }

    /// AMCL's return code for SERVER_2: MPIN_OK 0, MPIN_BAD_PIN -19, MPIN_INVALID_POINT -14.
    static func returnCode(_ result: MPin.Server2Result) -> Int {
        switch result {
        case .ok: 0
        case .badPIN: -19
        case .invalidPoint: -14
        }
    }
}
