import MPinCrypto

/// Checks AMCL one-pass M-Pin vectors (the `TimeValue` lists), field by field, through `MPin`.
///
/// In these files `SEC` holds the final V, not CLIENT_1's SEC (docs/crypto.md §6). After the enrolment
/// (`MPinEnrolmentChecks`) the one-pass client runs with the required inputs X, PIN2 and
/// `TimeValue` (or `TIME_VALUE`, 0 to 2^32 − 1); every output below is required:
/// * `U`, `UT` (DATE ≠ 0) as CLIENT_1;
/// * `Y` = GET_Y(TimeValue, UT when DATE != 0 else U);
/// * `SEC` (or `V`) = CLIENT_2(X, Y, CLIENT_1's SEC);
/// * `SERVER_OUTPUT` = the one-pass server on U, UT, V at the same `TimeValue` (0, or -19 on a
///   wrong PIN), except in the shares layout of milagro-crypto-js's files, which do not carry it.
struct MPinOnePassChecker {
    let mpin: MPin
    let layout: MPinEnrolment.Layout

    /// - Parameter layout: the file's layout (`MPinEnrolment.Layout.of`).
    init(curve: CurveID, layout: MPinEnrolment.Layout = .masterSecrets) {
        mpin = MPin(curve: curve)
        self.layout = layout
    }

    func check(_ block: AMCLBlock) -> VectorFieldLedger {
        var ledger = VectorFieldLedger(block: block, format: VectorFormat.onePass.rawValue)
        ledger.label("TEST", "test_no", "TEST_NO")
        let mpin = self.mpin
        let enrolment = MPinEnrolmentChecks.check(&ledger, mpin: mpin, layout: layout)
        let date = enrolment.date

        ledger.requireInput("X")
        let x = ledger.bytes("X")
        ledger.requireInput("TimeValue", "TIME_VALUE")
        let timeValueKey = ledger.firstKey(of: ["TimeValue", "TIME_VALUE"]) ?? "TimeValue"
        let timeValue = ledger.uint32(timeValueKey)
        let client = whenPresent(
            enrolment.id, x, enrolment.pin2, enrolment.token, enrolment.permitArgument, timeValue, date
        ) {
            mpin.client(date: $6, id: $0, x: $1, pin: $2, token: $3, permit: $4, message: nil, timeValue: $5)
        }
        let u = ledger.derive("U", client.map(\.u))
        let ut = ledger.deriveUT(date: date, client.flatMap(rejection: "none: the client gave no UT") { $0.ut })
        ledger.derive("Y", client.map(\.y))
        let vKey = ledger.firstKey(of: ["SEC", "V"]) ?? "SEC"
        let v = ledger.derive(vKey, client.map(\.v))
        if vKey == "SEC", ledger.has("V") {
            ledger.derive("V", client.map(\.v))
        }

        let utArgument = MPinTwoPassChecker.dateArgument(ut, date: date)
        let required = enrolment.layout == .masterSecrets
        guard required || ledger.has("SERVER_OUTPUT") else { return ledger }  // nothing would compare it
        let server = whenPresent(enrolment.id, enrolment.serverSecret, u, utArgument, v, timeValue, date) {
            mpin.server(
                date: $6, id: $0, serverSecret: $1, u: $2, ut: $3, v: $4, message: nil, timeValue: $5)
        }
        ledger.deriveInteger(
            "SERVER_OUTPUT", server.map { MPinTwoPassChecker.returnCode($0.result) }, required: required)
        return ledger
    }
}
