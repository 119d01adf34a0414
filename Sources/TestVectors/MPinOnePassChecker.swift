import MPinCrypto

/// Checks AMCL one-pass M-Pin vectors (the `TimeValue` lists), field by field, through `MPin`.
///
/// In these files `SEC` holds the final V, not CLIENT_1's SEC (CRYPTO.md §6). After the enrolment
/// (`MPinEnrolmentChecks`) the one-pass client runs with X, PIN2 and `TimeValue`:
/// * `U`, `UT` as CLIENT_1;
/// * `Y` = GET_Y(TimeValue, UT when DATE != 0 else U);
/// * `SEC` (or `V`) = CLIENT_2(X, Y, CLIENT_1's SEC);
/// * `SERVER_OUTPUT` = the one-pass server on U, UT, V at the same `TimeValue` (0, or -19 on a wrong PIN).
struct MPinOnePassChecker {
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

        let x = ledger.bytes("X")
        let timeValueKey = ledger.firstKey(of: ["TimeValue", "TIME_VALUE"]) ?? "TimeValue"
        let timeValue = ledger.integer(timeValueKey).flatMap { UInt32(exactly: $0) }
        let client = whenPresent(enrolment.id, x, enrolment.pin2, enrolment.token, enrolment.permitArgument, timeValue) {
            mpin.client(date: date, id: $0, x: $1, pin: $2, token: $3, permit: $4, message: nil, timeValue: $5)
        }
        let u = ledger.derive("U", client.map(\.u))
        let ut: [UInt8]?
        if date != 0 {
            ut = ledger.derive("UT", client.flatMap(rejection: "none: the client gave no UT") { $0.ut })
        } else {
            if ledger.has("UT") { ledger.derive("UT", .rejected("none: DATE = 0 gives no UT")) }
            ut = nil
        }
        ledger.derive("Y", client.map(\.y))
        let vKey = ledger.firstKey(of: ["SEC", "V"]) ?? "SEC"
        let v = ledger.derive(vKey, client.map(\.v))
        if vKey == "SEC", ledger.has("V") {
            ledger.derive("V", client.map(\.v))
        }

        let utArgument: [UInt8]?? = date == 0 ? .some(nil) : ut.map { Optional($0) }
        let server = whenPresent(enrolment.id, enrolment.serverSecret, u, utArgument, v, timeValue) {
            mpin.server(
                date: date, id: $0, serverSecret: $1, u: $2, ut: $3, v: $4, message: nil, timeValue: $5)
        }
        ledger.deriveInteger("SERVER_OUTPUT", server.map { MPinTwoPassChecker.returnCode($0.result) })
        return ledger
    }
}
