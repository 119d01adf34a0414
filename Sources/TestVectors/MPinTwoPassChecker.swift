import MPinCrypto

/// Checks AMCL two-pass M-Pin vectors, field by field, through the `MPin` facade.
///
/// The chain (CRYPTO.md §5), with every value compared where the vector has it:
/// enrolment (`MPinEnrolmentChecks`), then with X, Y and PIN2:
/// * `U`, `UT`, `SEC` = CLIENT_1(DATE, ID, X, PIN2, TOKEN, TIME_PERMIT), `CLIENT_1_RC` its return code;
/// * `V` = CLIENT_2(X, Y, SEC);
/// * `HID`, `HTID` = SERVER_1(DATE, ID);
/// * `SERVER_OUTPUT` = SERVER_2 (0, or -19 on a wrong PIN), with `E`, `F` its error values and
///   `KANGAROO` = KANGAROO(E, F) = PIN2 − PIN1 (0 when the kangaroo trap fails);
/// * `PRECOMPUTE_G1/G2` = PRECOMPUTE(TOKEN, HASH_ID);
/// * M-Pin Full: `Z` = R·H(ID), `T` = W·(HTID or HID), `HASH_ALL`, `CLIENT_KEY`, `SERVER_KEY`;
/// * `ONEPASS_Y`, `ONEPASS_V` (and `ONEPASS_RC`) = the one-pass client at `TIME_VALUE`, same X and PIN2.
///
/// The extended fields appear in the AMCL-C generated file; the published two-pass files stop at
/// `SERVER_OUTPUT`.
struct MPinTwoPassChecker {
    let mpin: MPin

    init(curve: CurveID) {
        mpin = MPin(curve: curve)
    }

    func check(_ block: AMCLBlock) -> VectorFieldLedger {
        var ledger = VectorFieldLedger(block: block)
        ledger.label("TEST", "test_no", "TEST_NO")
        let mpin = self.mpin
        let enrolment = MPinEnrolmentChecks.check(&ledger, mpin: mpin)
        let date = enrolment.date
        let id = enrolment.id
        let hashedID = enrolment.hashedID
        let pin2 = enrolment.pin2
        let token = enrolment.token
        let permit = enrolment.permitArgument
        let serverSecret = enrolment.serverSecret

        // CLIENT_1, CLIENT_2.
        let x = ledger.bytes("X")
        let y = ledger.bytes("Y")
        let client1 = whenPresent(id, x, pin2, token, permit) {
            mpin.client1(date: date, id: $0, x: $1, pin: $2, token: $3, permit: $4)
        }
        ledger.deriveInteger("CLIENT_1_RC", Self.returnCode(client1))
        let u = ledger.derive("U", client1.map(\.u))
        let ut: [UInt8]?
        if date != 0 {
            ut = ledger.derive("UT", client1.flatMap(rejection: "none: CLIENT_1 gave no UT") { $0.ut })
        } else {
            if ledger.has("UT") { ledger.derive("UT", .rejected("none: DATE = 0 gives no UT")) }
            ut = nil
        }
        let utArgument: [UInt8]?? = date == 0 ? .some(nil) : ut.map { Optional($0) }
        let sec = ledger.derive("SEC", client1.map(\.sec))
        let v = ledger.derive("V", whenPresent(x, y, sec) { mpin.client2(x: $0, y: $1, sec: $2) })

        // SERVER_1, SERVER_2 with its error values, KANGAROO.
        let server1 = whenPresent(id) { mpin.server1(date: date, id: $0) }
        let hid = ledger.derive("HID", server1.map(\.hid))
        let htid: [UInt8]?
        if date != 0 {
            htid = ledger.derive("HTID", server1.flatMap(rejection: "none: SERVER_1 gave no HTID") { $0.htid })
        } else {
            if ledger.has("HTID") { ledger.derive("HTID", .rejected("none: DATE = 0 gives no HTID")) }
            htid = nil
        }
        let htidArgument: [UInt8]?? = date == 0 ? .some(nil) : htid.map { Optional($0) }
        let wantsErrors = ledger.has("E") || ledger.has("F") || ledger.has("KANGAROO")
        let server2 = whenPresent(hid, htidArgument, y, serverSecret, u, utArgument, v) {
            mpin.server2(
                date: date, hid: $0, htid: $1, y: $2, serverSecret: $3, u: $4, ut: $5, v: $6,
                errorValues: wantsErrors)
        }
        ledger.deriveInteger("SERVER_OUTPUT", server2.map(Self.returnCode))
        var e: [UInt8]?
        var f: [UInt8]?
        if wantsErrors {
            switch server2 {
            case .value(.badPIN(let computedE, let computedF)):
                e = ledger.derive("E", Computation(computedE, rejection: "none: SERVER_2 gave no E"))
                f = ledger.derive("F", Computation(computedF, rejection: "none: SERVER_2 gave no F"))
            case .value(let result):
                let why = "none: SERVER_2 returned \(Self.returnCode(result))"
                e = ledger.derive("E", ledger.has("E") ? .rejected(why) : .unavailable)
                f = ledger.derive("F", ledger.has("F") ? .rejected(why) : .unavailable)
            case .rejected, .unavailable:
                e = ledger.bytes("E")
                f = ledger.bytes("F")
            }
            ledger.deriveInteger("KANGAROO", whenPresent(e, f) { mpin.kangaroo(e: $0, f: $1) })
        }

        // PRECOMPUTE and M-Pin Full.
        let precomputed = whenPresent(token, hashedID) { mpin.precompute(token: $0, hashedID: $1) }
        let g1 = ledger.derive("PRECOMPUTE_G1", precomputed.map(\.g1))
        let g2 = ledger.derive("PRECOMPUTE_G2", precomputed.map(\.g2))
        let r = ledger.bytes("R")
        let w = ledger.bytes("W")
        let z = ledger.derive("Z", whenPresent(r, hashedID) { mpin.g1Multiple(scalar: $0, hashed: true, g: $1) })
        let t = ledger.derive("T", whenPresent(w, date != 0 ? htid : hid) {
            mpin.g1Multiple(scalar: $0, hashed: false, g: $1)
        })
        let h = ledger.derive("HASH_ALL", whenPresent(hashedID, u, utArgument, v, y, z, t) {
            mpin.hashAll(hashedID: $0, u: $1, ut: $2, v: $3, y: $4, z: $5, t: $6)
        })
        ledger.derive("CLIENT_KEY", whenPresent(g1, g2, pin2, r, x, h, t) {
            mpin.clientKey(g1: $0, g2: $1, pin: $2, r: $3, x: $4, h: $5, t: $6)
        })
        ledger.derive("SERVER_KEY", whenPresent(z, serverSecret, w, h, hid, u, utArgument) {
            mpin.serverKey(z: $0, serverSecret: $1, w: $2, h: $3, hid: $4, u: $5, ut: $6)
        })

        // The one-pass client on the same inputs.
        if ledger.has("ONEPASS_Y") || ledger.has("ONEPASS_V") || ledger.has("ONEPASS_RC") {
            let timeValue = ledger.integer("TIME_VALUE").flatMap { UInt32(exactly: $0) }
            let onePass = whenPresent(id, x, pin2, token, permit, timeValue) {
                mpin.client(
                    date: date, id: $0, x: $1, pin: $2, token: $3, permit: $4, message: nil, timeValue: $5)
            }
            ledger.deriveInteger("ONEPASS_RC", Self.returnCode(onePass))
            ledger.derive("ONEPASS_Y", onePass.map(\.y))
            ledger.derive("ONEPASS_V", onePass.map(\.v))
        } else if ledger.has("TIME_VALUE") {
            _ = ledger.integer("TIME_VALUE")
        }
        return ledger
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
