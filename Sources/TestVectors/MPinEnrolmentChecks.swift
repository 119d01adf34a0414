import MPinCrypto

/// The enrolment values of an M-Pin vector, as checked (or, where they could not be computed, as given).
struct MPinEnrolment {
    /// The raw identity (`MPIN_ID_HEX` decoded, or the bytes of `MPIN_ID`).
    var id: [UInt8]?
    /// HASH_ID(ID), `HASH_MPIN_ID_HEX`.
    var hashedID: [UInt8]?
    /// Days since 1970; 0 means no time permits.
    var date: UInt32
    var pin1: Int32?
    var pin2: Int32?
    /// SS1 + SS2.
    var serverSecret: [UInt8]?
    /// CS1 + CS2.
    var clientSecret: [UInt8]?
    /// TP1 + TP2 when DATE != 0.
    var timePermit: [UInt8]?
    /// EXTRACT_PIN(ID, PIN1, CLIENT_SECRET).
    var token: [UInt8]?

    /// The permit argument of CLIENT_1: none when DATE = 0, a required input otherwise
    /// (the outer nil means "missing").
    var permitArgument: [UInt8]?? { date == 0 ? .some(nil) : timePermit.map { Optional($0) } }
}

/// Checks the fields every AMCL M-Pin vector shares: the identity and its hash, the two trusted
/// authorities' shares and their sums (server secret, client secret, time permit) and the token.
///
/// Semantics as in AMCL (CRYPTO.md §4-§5): SS = s·Q, CS = s·H(HASH_ID(ID)),
/// TP = s·mapit(SHA256(be32(DATE) ‖ HASH_ID(ID))), TOKEN = CS − (PIN1 mod 10000)·H(ID).
enum MPinEnrolmentChecks {
    static func check(_ ledger: inout VectorFieldLedger, mpin: MPin) -> MPinEnrolment {
        // Identity: MPIN_ID_HEX is the authority; MPIN_ID (or the JSON's mpin_id) must spell it.
        let textKey = ledger.firstKey(of: ["MPIN_ID", "mpin_id"])
        var id: [UInt8]?
        if ledger.has("MPIN_ID_HEX") {
            id = ledger.bytes("MPIN_ID_HEX")
            if let textKey {
                ledger.deriveText(textKey, whenPresent(id) { String(decoding: $0, as: UTF8.self) })
            }
        } else if let textKey {
            id = ledger.text(textKey).map { Array($0.utf8) }
        }
        let hashedID = ledger.derive("HASH_MPIN_ID_HEX", whenPresent(id) { mpin.hashID($0) })

        let date = ledger.integer("DATE").flatMap { UInt32(exactly: $0) } ?? 0
        let pin1 = ledger.integer("PIN1").flatMap { Int32(exactly: $0) }
        let pin2 = ledger.integer("PIN2").flatMap { Int32(exactly: $0) }

        let ms1 = ledger.bytes("MS1")
        let ms2 = ledger.bytes("MS2")

        let ss1 = ledger.derive("SS1", whenPresent(ms1) { mpin.serverSecret(masterSecret: $0) })
        let ss2 = ledger.derive("SS2", whenPresent(ms2) { mpin.serverSecret(masterSecret: $0) })
        let serverSecretKey = ledger.firstKey(of: ["SERVER_SECRET", "ServerSecret"]) ?? "SERVER_SECRET"
        let serverSecret = ledger.derive(serverSecretKey, whenPresent(ss1, ss2) { mpin.recombineG2($0, $1) })

        let cs1 = ledger.derive("CS1", whenPresent(ms1, hashedID) { mpin.clientSecret(masterSecret: $0, hashedID: $1) })
        let cs2 = ledger.derive("CS2", whenPresent(ms2, hashedID) { mpin.clientSecret(masterSecret: $0, hashedID: $1) })
        let clientSecret = ledger.derive("CLIENT_SECRET", whenPresent(cs1, cs2) { mpin.recombineG1($0, $1) })

        var timePermit: [UInt8]?
        if date != 0 {
            let tp1 = ledger.derive("TP1", whenPresent(ms1, hashedID) {
                mpin.clientPermit(date: date, masterSecret: $0, hashedID: $1)
            })
            let tp2 = ledger.derive("TP2", whenPresent(ms2, hashedID) {
                mpin.clientPermit(date: date, masterSecret: $0, hashedID: $1)
            })
            timePermit = ledger.derive("TIME_PERMIT", whenPresent(tp1, tp2) { mpin.recombineG1($0, $1) })
        } else {
            for key in ["TP1", "TP2", "TIME_PERMIT"] where ledger.has(key) {
                ledger.derive(key, .rejected("none: DATE = 0 means no time permit"))
            }
        }

        let token = ledger.derive("TOKEN", whenPresent(id, pin1, clientSecret) {
            mpin.extractPIN(id: $0, pin: $1, token: $2)
        })

        return MPinEnrolment(
            id: id, hashedID: hashedID, date: date, pin1: pin1, pin2: pin2, serverSecret: serverSecret,
            clientSecret: clientSecret, timePermit: timePermit, token: token)
    }
}
