import MPinCrypto

/// The enrolment values of an M-Pin vector, as checked (or, where they could not be computed, as given).
struct MPinEnrolment {
    /// Where the trusted authorities' shares come from: a property of a whole file, so that a
    /// vector of a master-secrets file that lacks MS1 and MS2 fails instead of passing as shares.
    enum Layout: Equatable, Sendable {
        /// MS1 and MS2 are given and every share is computed from them (milagro-crypto-c's files,
        /// which `test/test_mpin_vectors_dta_ZZZ.c.in` reads, the AMCL-C generated file, the
        /// workbench's suites). Every value of the flow is then required, SEC and SERVER_OUTPUT
        /// included.
        case masterSecrets
        /// The shares SS1, SS2, CS1, CS2 (and TP1, TP2) are given without master secrets
        /// (milagro-crypto-js's `MPIN_<curve>.json` and `MPIN_ONE_PASS_<curve>.json`, which
        /// `test/test_MPIN.js` reads). The format has no HASH_MPIN_ID_HEX, no SERVER_OUTPUT and, in
        /// the two-pass files, no CLIENT_1 SEC: these are checked when a vector gives them, never
        /// demanded.
        case shares

        /// The layout of a file: master secrets when any vector has MS1 or MS2, shares when none
        /// has them and some vector has a share, master secrets otherwise (MS1 and MS2 are then
        /// missing inputs).
        static func of(_ blocks: [AMCLBlock]) -> Layout {
            let shareKeys = ["SS1", "SS2", "CS1", "CS2", "TP1", "TP2"]
            let hasMaster = blocks.contains { $0["MS1"] != nil || $0["MS2"] != nil }
            let hasShares = blocks.contains { block in shareKeys.contains { block[$0] != nil } }
            return !hasMaster && hasShares ? .shares : .masterSecrets
        }
    }

    var layout: Layout
    /// The raw identity (`MPIN_ID_HEX` decoded, or the bytes of `MPIN_ID`).
    var id: [UInt8]?
    /// HASH_ID(ID), `HASH_MPIN_ID_HEX`.
    var hashedID: [UInt8]?
    /// Days since 1970; 0 means no time permits; nil when missing or invalid.
    var date: UInt32?
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
    /// (the outer nil means "missing", as when DATE itself is).
    var permitArgument: [UInt8]?? {
        guard let date else { return nil }
        return date == 0 ? .some(nil) : timePermit.map { Optional($0) }
    }
}

/// Checks the fields every AMCL M-Pin vector shares: the identity and its hash, the two trusted
/// authorities' shares and their sums (server secret, client secret, time permit) and the token.
///
/// Semantics as in AMCL (docs/crypto.md §4-§5): SS = s·Q, CS = s·H(HASH_ID(ID)),
/// TP = s·mapit(SHA256(be32(DATE) ‖ HASH_ID(ID))), TOKEN = CS − (PIN1 mod 10000)·H(ID).
///
/// Required inputs: an identity (`MPIN_ID_HEX`, or `MPIN_ID`/`mpin_id` as text), `DATE` (0 to
/// 2^32 − 1), `PIN1` and `PIN2` (C `int`s), and either `MS1` and `MS2` (every share, the sums,
/// HASH_MPIN_ID_HEX and TOKEN are then required outputs) or, in the shares layout, `SS1`, `SS2`,
/// `CS1`, `CS2` and, when DATE ≠ 0, `TP1`, `TP2` (the sums and TOKEN are required outputs).
///
/// The server secret SS1 + SS2 is `SERVER_SECRET`; milagro-crypto-js's two-pass files write it
/// twice, as `SERVER_SECRET` and `ServerSecret`. Each one a vector has is compared with the sum;
/// at least one is required.
enum MPinEnrolmentChecks {
    static let serverSecretKeys = ["SERVER_SECRET", "ServerSecret"]

    /// - Parameter layout: the file's layout (`MPinEnrolment.Layout.of`).
    static func check(_ ledger: inout VectorFieldLedger, mpin: MPin, layout: MPinEnrolment.Layout) -> MPinEnrolment {

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
        ledger.requireInput("MPIN_ID_HEX", "MPIN_ID", "mpin_id")
        let hashedID = ledger.derive(
            "HASH_MPIN_ID_HEX", whenPresent(id) { mpin.hashID($0) },
            required: layout == .masterSecrets)

        ledger.requireInput("DATE")
        ledger.requireInput("PIN1")
        ledger.requireInput("PIN2")
        let date = ledger.uint32("DATE")
        let pin1 = ledger.int32("PIN1")
        let pin2 = ledger.int32("PIN2")

        let ss1, ss2, cs1, cs2: [UInt8]?
        var tp1: [UInt8]? = nil, tp2: [UInt8]? = nil
        switch layout {
        case .masterSecrets:
            ledger.requireInput("MS1")
            ledger.requireInput("MS2")
            let ms1 = ledger.bytes("MS1")
            let ms2 = ledger.bytes("MS2")
            ss1 = ledger.derive("SS1", whenPresent(ms1) { mpin.serverSecret(masterSecret: $0) })
            ss2 = ledger.derive("SS2", whenPresent(ms2) { mpin.serverSecret(masterSecret: $0) })
            cs1 = ledger.derive("CS1", whenPresent(ms1, hashedID) { mpin.clientSecret(masterSecret: $0, hashedID: $1) })
            cs2 = ledger.derive("CS2", whenPresent(ms2, hashedID) { mpin.clientSecret(masterSecret: $0, hashedID: $1) })
            if let date, date != 0 {
                tp1 = ledger.derive(
                    "TP1",
                    whenPresent(ms1, hashedID) {
                        mpin.clientPermit(date: date, masterSecret: $0, hashedID: $1)
                    })
                tp2 = ledger.derive(
                    "TP2",
                    whenPresent(ms2, hashedID) {
                        mpin.clientPermit(date: date, masterSecret: $0, hashedID: $1)
                    })
            }
        case .shares:
            for key in ["SS1", "SS2", "CS1", "CS2"] { ledger.requireInput(key) }
            ss1 = ledger.bytes("SS1")
            ss2 = ledger.bytes("SS2")
            cs1 = ledger.bytes("CS1")
            cs2 = ledger.bytes("CS2")
            if let date, date != 0 {
                ledger.requireInput("TP1")
                ledger.requireInput("TP2")
                tp1 = ledger.bytes("TP1")
                tp2 = ledger.bytes("TP2")
            }
        }
        let computedServerSecret = whenPresent(ss1, ss2) { mpin.recombineG2($0, $1) }
        let serverSecretKeys = Self.serverSecretKeys.filter(ledger.has)
        var serverSecret: [UInt8]?
        for key in serverSecretKeys.isEmpty ? ["SERVER_SECRET"] : serverSecretKeys {
            let value = ledger.derive(key, computedServerSecret)
            serverSecret = serverSecret ?? value
        }
        let clientSecret = ledger.derive("CLIENT_SECRET", whenPresent(cs1, cs2) { mpin.recombineG1($0, $1) })

        var timePermit: [UInt8]?
        switch date {
        case .some(0):
            for key in ["TP1", "TP2", "TIME_PERMIT"] where ledger.has(key) {
                ledger.derive(key, .rejected("none: DATE = 0 means no time permit"))
            }
        case .some:
            timePermit = ledger.derive("TIME_PERMIT", whenPresent(tp1, tp2) { mpin.recombineG1($0, $1) })
        case nil:
            for key in ["TP1", "TP2", "TIME_PERMIT"] where ledger.has(key) { ledger.derive(key, .unavailable) }
        }

        let token = ledger.derive(
            "TOKEN",
            whenPresent(id, pin1, clientSecret) {
                mpin.extractPIN(id: $0, pin: $1, token: $2)
            })

        return MPinEnrolment(
            layout: layout, id: id, hashedID: hashedID, date: date, pin1: pin1, pin2: pin2,
            serverSecret: serverSecret, clientSecret: clientSecret, timePermit: timePermit, token: token)
    }
}
