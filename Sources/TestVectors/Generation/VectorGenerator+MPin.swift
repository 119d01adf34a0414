import MPinCrypto
import OrderedJSON

/// The M-Pin flow suites: two trusted authorities, enrolment, and the two-pass, one-pass or Full
/// authentication, with every intermediate under AMCL's key names (docs/crypto.md §5).
extension VectorGenerator {
    enum Flow: Sendable {
        case twoPass, onePass, full
    }

    func mpinPlan(flow: Flow) -> [GroupPlan] {
        let mpin = self.mpin
        let type: String
        switch flow {
        case .twoPass: type = "MPinTwoPassTest"
        case .onePass: type = "MPinOnePassTest"
        case .full: type = "MPinFullTest"
        }
        var groups: [GroupPlan] = []
        for permits in [true, false] {
            // At least one test a group, so that no group is empty.
            let n = max(1, permits ? (count + 1) / 2 : count / 2)
            let jobs = VectorJobs(count: n) { index in
                // Every third test has a wrong PIN.
                let wrong = index % 3 == 2
                return { rng in
                    Self.mpinCase(mpin: mpin, flow: flow, permits: permits, wrongPIN: wrong, index: index, rng: &rng)
                }
            }
            let parameters: [String: JSONValue] = [
                "timePermits": .bool(permits),
                "pinBits": .integer(MPin.pinBits),
                "maxPIN": .integer(MPin.maxPIN),
            ]
            groups.append(GroupPlan(type: type, parameters: parameters, jobs: jobs))
        }
        return groups
    }

    /// An identity in the shape of the Milagro MFA ids (compact JSON), or a plain e-mail address.
    static func identity(_ rng: inout SeededRandom, index: Int) -> String {
        let user = "user\(rng.next() % 100_000)@example.com"
        if index % 2 == 1 { return user }
        let day = 1 + Int(rng.next() % 28)
        let salt = Hex.encode(rng.bytes(8))
        return
            "{\"mobile\": 1, \"issued\": \"2015-05-\(day < 10 ? "0" : "")\(day)T16:17:34Z\", \"userID\": \"\(user)\", \"salt\": \"\(salt)\"}"
    }

    static func mpinCase(
        mpin: MPin, flow: Flow, permits: Bool, wrongPIN: Bool, index: Int,
        rng: inout SeededRandom
    ) -> VectorTestCase {
        var f: [String: JSONValue] = [:]
        let idText = identity(&rng, index: index)
        let id = Array(idText.utf8)
        f.hex("MPIN_ID_HEX", id)
        let hcid = mpin.hashID(id)
        f.hex("HASH_MPIN_ID_HEX", hcid)

        // The trusted authorities.
        let ms1 = mpin.randomScalar(using: &rng), ms2 = mpin.randomScalar(using: &rng)
        f.hex("MS1", ms1)
        f.hex("MS2", ms2)
        let ss1 = mpin.serverSecret(masterSecret: ms1)!, ss2 = mpin.serverSecret(masterSecret: ms2)!
        let serverSecret = mpin.recombineG2(ss1, ss2)!
        f.hex("SS1", ss1)
        f.hex("SS2", ss2)
        f.hex("SERVER_SECRET", serverSecret)
        let cs1 = mpin.clientSecret(masterSecret: ms1, hashedID: hcid)!
        let cs2 = mpin.clientSecret(masterSecret: ms2, hashedID: hcid)!
        let clientSecret = mpin.recombineG1(cs1, cs2)!
        f.hex("CS1", cs1)
        f.hex("CS2", cs2)
        f.hex("CLIENT_SECRET", clientSecret)

        let date: UInt32 = permits ? 16574 + UInt32(rng.next() % 5000) : 0
        f["DATE"] = .integer(Int(date))
        var permit: [UInt8]? = nil
        if permits {
            let tp1 = mpin.clientPermit(date: date, masterSecret: ms1, hashedID: hcid)!
            let tp2 = mpin.clientPermit(date: date, masterSecret: ms2, hashedID: hcid)!
            permit = mpin.recombineG1(tp1, tp2)!
            f.hex("TP1", tp1)
            f.hex("TP2", tp2)
            f.hex("TIME_PERMIT", permit!)
        }

        // Enrolment and the PIN typed at authentication.
        let pin1 = Int32(rng.next() % 10000)
        var pin2 = pin1
        if wrongPIN {
            // Mostly typos (a small PIN error the kangaroo can find), sometimes any other PIN.
            if rng.next() % 4 == 0 {
                repeat { pin2 = Int32(rng.next() % 10000) } while pin2 == pin1
            } else {
                let delta = Int32(1 + rng.next() % 20) * (rng.next() % 2 == 0 ? 1 : -1)
                pin2 = (pin1 + delta + 10000) % 10000
            }
        }
        f["PIN1"] = .integer(Int(pin1))
        f["PIN2"] = .integer(Int(pin2))
        let token = mpin.extractPIN(id: id, pin: pin1, token: clientSecret)!
        f.hex("TOKEN", token)

        // Client pass 1.
        let x = mpin.randomScalar(using: &rng)
        f.hex("X", x)
        let c1 = mpin.client1(date: date, id: id, x: x, pin: pin2, token: token, permit: permit)!
        f.hex("U", c1.u)
        if let ut = c1.ut { f.hex("UT", ut) }
        f.hex("SEC", c1.sec)

        // The challenge: random (two-pass, Full) or GET_Y (one-pass).
        var message: [UInt8]? = nil
        let y: [UInt8]
        var flags: [String] = [wrongPIN ? "WrongPIN" : "GoodPIN", permits ? "TimePermits" : "NoTimePermits"]
        if flow == .onePass {
            let timeValue = UInt32(1_437_055_594 + rng.next() % 100_000_000)
            f["TIME_VALUE"] = .integer(Int(timeValue))
            if index % 3 == 1 {
                message = rng.bytes(16 + Int(rng.next() % 32))
                f.hex("MESSAGE", message!)
                flags.append("Message")
            }
            y = mpin.getY(timeValue: timeValue, message: (c1.ut ?? c1.u) + (message ?? []))
        } else {
            y = mpin.randomScalar(using: &rng)
        }
        f.hex("Y", y)
        let v = mpin.client2(x: x, y: y, sec: c1.sec)!
        f.hex("V", v)

        // The server.
        let (hid, htid) = mpin.server1(date: date, id: id)
        f.hex("HID", hid)
        if let htid { f.hex("HTID", htid) }
        let result = mpin.server2(
            date: date, hid: hid, htid: htid, y: y, serverSecret: serverSecret, u: c1.u,
            ut: c1.ut, v: v, errorValues: wrongPIN)
        var kangaroo: Int? = nil
        switch result {
        case .ok:
            f["SERVER_OUTPUT"] = .integer(0)
        case .badPIN(let e, let ff):
            f["SERVER_OUTPUT"] = .integer(-19)
            if let e, let ff {
                f.hex("E", e)
                f.hex("F", ff)
                kangaroo = mpin.kangaroo(e: e, f: ff)
                f["KANGAROO"] = .integer(kangaroo ?? 0)
                if kangaroo == 0 { flags.append("KangarooTrapFailed") }
            }
        case .invalidPoint:
            f["SERVER_OUTPUT"] = .integer(-14)
        }

        var comment = wrongPIN ? "wrong PIN (PIN2 − PIN1 = \(pin2 - pin1))" : "right PIN"
        comment += permits ? ", time permit for day \(date)" : ", no time permit"
        if message != nil { comment += ", with a message" }
        var valid = result == .ok

        if flow == .full {
            let (g1, g2) = mpin.precompute(token: token, hashedID: hcid)!
            f.hex("PRECOMPUTE_G1", g1)
            f.hex("PRECOMPUTE_G2", g2)
            let r = mpin.randomScalar(using: &rng), w = mpin.randomScalar(using: &rng)
            f.hex("R", r)
            f.hex("W", w)
            let z = mpin.g1Multiple(scalar: r, hashed: true, g: hcid)!
            let t = mpin.g1Multiple(scalar: w, hashed: false, g: htid ?? hid)!
            f.hex("Z", z)
            f.hex("T", t)
            let h = mpin.hashAll(hashedID: hcid, u: c1.u, ut: c1.ut, v: v, y: y, z: z, t: t)
            f.hex("HASH_ALL", h)
            let ck = mpin.clientKey(g1: g1, g2: g2, pin: pin2, r: r, x: x, h: h, t: t)!
            let sk = mpin.serverKey(z: z, serverSecret: serverSecret, w: w, h: h, hid: hid, u: c1.u, ut: c1.ut)!
            f.hex("CLIENT_KEY", ck)
            f.hex("SERVER_KEY", sk)
            valid = ck == sk
            flags.append(valid ? "KeysMatch" : "KeysDiffer")
            comment += valid ? "; the keys match" : "; the keys differ"
        }
        let error = result == .invalidPoint ? "MPIN_INVALID_POINT" : "MPIN_BAD_PIN"
        return VectorTestCase(
            comment: comment, flags: flags, result: valid ? .valid : .invalid,
            expectedError: valid ? nil : error, fields: f)
    }
}
