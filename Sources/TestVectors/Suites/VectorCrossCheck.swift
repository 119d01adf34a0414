import GMPOracle
import MPinCrypto
import OrderedJSON

/// `vectors verify --cross-check`: re-checks a test with the GMP oracle, independently of the fast
/// code (only SHA-256 is shared): every G1 field on the curve and of order r, H(ID) and HT by an
/// independent mapit, and the scalar relations of the flow (CS = (MS1 + MS2)·H(ID), TOKEN,
/// U = x·H(ID), UT, SEC, V = −(x + y)·SEC, Z, T, the shares adding up), and SERVER_2's verdict
/// from the PINs (the product is 1 exactly when PIN1 ≡ PIN2 on 14 bits).
struct VectorCrossCheck: Sendable {
    let curve: GMPCurve
    let mpin: MPin

    init(curve: CurveID) {
        self.curve = curve == .bn254cx ? .bn254cx : .bn254
        mpin = MPin(curve: curve)
    }

    struct Result {
        var checked = 0
        var failures: [FieldFailure] = []
    }

    static let g1Keys = [
        "CS1", "CS2", "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT", "TOKEN", "U", "UT", "SEC", "V",
        "HID", "HTID", "HT", "Z", "T", "BP", "ABP", "BP1", "BP2", "POINT",
    ]

    func check(_ block: AMCLBlock, suite: VectorSuite, groupType: String, parameters: [String: JSONValue]) -> Result {
        var result = Result()
        func expect(_ ok: Bool, _ key: String, _ relation: String) {
            result.checked += 1
            guard !ok else { return }
            let line = block[key]?.line ?? block.line
            result.failures.append(
                FieldFailure(
                    vector: block.name, line: line, field: "cross-check \(key)",
                    expected: relation, actual: "does not hold (GMP oracle)"))
        }
        func hex(_ key: String) -> [UInt8]? { block[key].flatMap { Hex.decode($0.value) } }
        func point(_ key: String) -> GMPPoint? { hex(key).flatMap(curve.decode) }
        func scalar(_ key: String) -> GMPInteger? { hex(key).map { GMPInteger(bigEndian: $0) } }
        func int(_ key: String) -> Int? { block[key].flatMap { Int($0.value) } }
        func same(_ key: String, _ value: GMPPoint?) -> Bool { value != nil && point(key) == value }

        // Membership and order of every G1 value (skipping encodings meant to be invalid).
        // Encodings: only the decoded G1 points; the point at infinity ("00") is refused elsewhere.
        let g1Encodings = parameters["group"]?.stringValue == "G1"
        for key in Self.g1Keys
        where block[key] != nil && block[key]?.value != "00"
            && (suite != .encoding || (g1Encodings && key == "POINT"))
        {
            guard let p = point(key) else {
                expect(false, key, "\(key) decodes to a point of E(F_p)")
                continue
            }
            expect(curve.isOnCurve(p), key, "\(key) is on the curve")
            expect(curve.multiply(p, by: curve.r).isInfinity, key, "r·\(key) = O")
        }

        let g = curve.generator
        let r = curve.r
        switch suite {
        case .hashToG1:
            if let id = hex("MPIN_ID_HEX") {
                let hcid = mpin.hashID(id)
                if groupType == "TimePermitHashTest", let date = int("DATE").flatMap(UInt32.init(exactly:)) {
                    let digest = mpin.hashID(
                        [
                            UInt8(date >> 24), UInt8(truncatingIfNeeded: date >> 16),
                            UInt8(truncatingIfNeeded: date >> 8), UInt8(truncatingIfNeeded: date),
                        ] + hcid)
                    expect(same("HT", mapit(digest)), "HT", "HT = mapit(SHA256(be32(DATE) || HASH_ID))")
                } else {
                    expect(same("HID", mapit(hcid)), "HID", "HID = mapit(SHA256(ID))")
                }
            }
        case .pairing:
            for (pointKey, scalarKey) in [("BP", "B"), ("ABP", "AB"), ("BP1", "B1"), ("BP2", "B2")]
            where block[pointKey] != nil {
                guard let k = scalar(scalarKey), !k.isZero, !k.modulo(r).isZero else { continue }
                expect(same(pointKey, curve.multiply(g, by: k)), pointKey, "\(pointKey) = \(scalarKey)·P")
            }
        case .encoding:
            if parameters["group"]?.stringValue == "G1", let encoding = hex("ENCODING") {
                let decoded = curve.decode(encoding)
                expect(
                    (decoded != nil) == (block["POINT"] != nil), "ENCODING",
                    "the encoding decodes exactly when POINT is given")
                if let decoded { expect(same("POINT", decoded), "POINT", "POINT is the decoded point") }
            }
        case .mpinTwoPass, .mpinOnePass, .mpinFull:
            guard let id = hex("MPIN_ID_HEX"), let ms1 = scalar("MS1"), let ms2 = scalar("MS2") else { break }
            let a = mapit(mpin.hashID(id))
            expect(same("HID", a), "HID", "HID = mapit(SHA256(ID))")
            expect(same("CS1", curve.multiply(a, by: ms1)), "CS1", "CS1 = MS1·H(ID)")
            expect(same("CS2", curve.multiply(a, by: ms2)), "CS2", "CS2 = MS2·H(ID)")
            let s = (ms1 + ms2).modulo(r)
            let cs = curve.multiply(a, by: s)
            expect(same("CLIENT_SECRET", cs), "CLIENT_SECRET", "CLIENT_SECRET = (MS1 + MS2)·H(ID): the shares add up")
            // A DATE that is missing or out of range fails the main check; nothing here assumes 0.
            guard let date = int("DATE").flatMap(UInt32.init(exactly:)) else { break }
            var base = a
            var permit: GMPPoint = .infinity
            if date != 0 {
                let hcid = mpin.hashID(id)
                let at = mapit(
                    mpin.hashID(
                        [
                            UInt8(date >> 24), UInt8(truncatingIfNeeded: date >> 16),
                            UInt8(truncatingIfNeeded: date >> 8), UInt8(truncatingIfNeeded: date),
                        ] + hcid))
                expect(same("TP1", curve.multiply(at, by: ms1)), "TP1", "TP1 = MS1·HT(DATE, ID)")
                expect(same("TP2", curve.multiply(at, by: ms2)), "TP2", "TP2 = MS2·HT(DATE, ID)")
                permit = curve.multiply(at, by: s)
                expect(same("TIME_PERMIT", permit), "TIME_PERMIT", "TIME_PERMIT = (MS1 + MS2)·HT: the shares add up")
                base = curve.add(a, at)
                expect(same("HTID", base), "HTID", "HTID = H(ID) + HT")
            }
            guard let pin1 = int("PIN1").flatMap(Int32.init(exactly:)),
                let pin2 = int("PIN2").flatMap(Int32.init(exactly:)),
                let x = scalar("X"), let y = scalar("Y")
            else { break }
            let m1 = PINMappingRules.multiplier(pin1), m2 = PINMappingRules.multiplier(pin2)
            let token = curve.subtract(cs, curve.multiply(a, by: GMPInteger(m1)))
            expect(same("TOKEN", token), "TOKEN", "TOKEN = CLIENT_SECRET − PIN1·H(ID)")
            expect(same("U", curve.multiply(a, by: x)), "U", "U = X·H(ID)")
            if date != 0 { expect(same("UT", curve.multiply(base, by: x)), "UT", "UT = X·(H(ID) + HT)") }
            let sec = curve.add(curve.add(token, curve.multiply(a, by: GMPInteger(m2))), permit)
            if suite != .mpinOnePass || block["SEC"] != nil {
                expect(same("SEC", sec), "SEC", "SEC = TOKEN + PIN2·H(ID) (+ TIME_PERMIT)")
            }
            let v = curve.negate(curve.multiply(sec, by: (x + y).modulo(r)))
            expect(same("V", v), "V", "V = −(X + Y)·SEC")
            if let output = int("SERVER_OUTPUT") {
                expect(
                    (output == 0) == (m1 == m2), "SERVER_OUTPUT",
                    "SERVER_2 accepts exactly when PIN1 = PIN2 (mod 10000)")
            }
            if let rr = scalar("R") { expect(same("Z", curve.multiply(a, by: rr)), "Z", "Z = R·H(ID)") }
            if let w = scalar("W") { expect(same("T", curve.multiply(base, by: w)), "T", "T = W·(HTID or HID)") }
        case .accessNumber, .pinMapping:
            break
        }
        return result
    }

    /// mapit on GMP: x = OS2I(h) mod p, incremented until x³ + 2 is a non-zero square; even y.
    func mapit(_ hash: [UInt8]) -> GMPPoint {
        var x = curve.field.reducing(bytes: Array(hash.prefix(32)))
        let one = GMPInteger(1)
        while true {
            let rhs = curve.rightHandSide(x)
            if curve.field.legendre(rhs) == 1, let root = curve.field.squareRoot(rhs) {
                let y = root.isOdd ? curve.field.negate(root) : root
                return .affine(x: x, y: y)
            }
            x = curve.field.add(x, one)
        }
    }
}
