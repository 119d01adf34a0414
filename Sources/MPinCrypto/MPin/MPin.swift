/// The M-Pin primitives of AMCL on byte strings (AMCL's octet API, docs/crypto.md §4-§5), for one curve.
///
/// This is the entry point for the layers above: it is not generic, and each call runs code
/// specialised for the curve. Scalars are 32 bytes big-endian, G1 points 65 bytes `04||x||y`, G2
/// points 128 bytes, GT values 384 bytes. A nil result means an input did not decode as a point
/// (AMCL's MPIN_INVALID_POINT); callers turn it into an error with context.
///
/// Randomness is a parameter: functions take the random scalars (x, y, r, w, ...) as inputs, and
/// ``randomScalar(using:)`` draws one from a generator the caller provides.
public struct MPin: Sendable, Hashable {
    public let curve: CurveID

    public init(curve: CurveID = .bn254cx) { self.curve = curve }

    /// MAXPIN: PINs are reduced modulo 10000 by CLIENT_1 and EXTRACT_PIN.
    public static let maxPIN = 10000
    /// PBLEN: the PIN multiplier uses the low 14 bits.
    public static let pinBits = 14
    public static let scalarSize = 32
    public static let g1Size = 65
    public static let g2Size = 128
    public static let gtSize = 384
    /// MPIN_PAS / AESKEY: the M-Pin Full session key size.
    public static let keySize = 16

    private func on<T>(_ cx: () -> T, _ nogami: () -> T) -> T {
        switch curve {
        case .bn254cx: return cx()
        case .bn254: return nogami()
        }
    }

    /// HASH_ID(ID) = SHA256(ID), 32 bytes.
    public func hashID(_ id: [UInt8]) -> [UInt8] { SHA256.hash(id) }

    /// mapit(h): hash to G1 by try-and-increment (docs/crypto.md §4), 65 bytes.
    public func mapToG1(_ hash: [UInt8]) -> [UInt8] {
        on({ MPinEngine<BN254CX>.mapToG1(hash).encoded() }, { MPinEngine<BN254>.mapToG1(hash).encoded() })
    }

    /// AT = mapit(SHA256(be32(date) || HCID)): the point a time permit for `date` multiplies.
    public func timePermitPoint(date: UInt32, hashedID: [UInt8]) -> [UInt8] {
        on(
            { MPinEngine<BN254CX>.timePermitPoint(date: date, hashedID: hashedID).encoded() },
            { MPinEngine<BN254>.timePermitPoint(date: date, hashedID: hashedID).encoded() })
    }

    /// RANDOM_GENERATE: 64 bytes from `rng` read big-endian and reduced mod r (uniform in [0, r) up
    /// to 2^-250), 32 bytes.
    public func randomScalar<R: RandomNumberGenerator>(using rng: inout R) -> [UInt8] {
        var wide: [UInt8] = []
        wide.reserveCapacity(64)
        for _ in 0..<8 {
            let w = rng.next()
            for j in stride(from: 56, through: 0, by: -8) { wide.append(UInt8(truncatingIfNeeded: w >> UInt64(j))) }
        }
        return on({ Fr<BN254CX>(reducing: wide).bytes }, { Fr<BN254>(reducing: wide).bytes })
    }

    /// GET_SERVER_SECRET: s·Q, 128 bytes.
    public func serverSecret(masterSecret s: [UInt8]) -> [UInt8]? {
        guard s.count <= 64 else { return nil }
        return on(
            { G2Point<BN254CX>.generator.multiplied(by: s).encoded() },
            { G2Point<BN254>.generator.multiplied(by: s).encoded() })
    }

    /// GET_CLIENT_SECRET: s·mapit(HCID); the input is the hashed id.
    public func clientSecret(masterSecret s: [UInt8], hashedID: [UInt8]) -> [UInt8]? {
        on(
            { MPinEngine<BN254CX>.mapToG1(hashedID).multiplied(by: s).encoded() },
            { MPinEngine<BN254>.mapToG1(hashedID).multiplied(by: s).encoded() })
    }

    /// GET_CLIENT_PERMIT: s·mapit(SHA256(be32(date) || HCID)).
    public func clientPermit(date: UInt32, masterSecret s: [UInt8], hashedID: [UInt8]) -> [UInt8]? {
        on(
            { MPinEngine<BN254CX>.timePermitPoint(date: date, hashedID: hashedID).multiplied(by: s).encoded() },
            { MPinEngine<BN254>.timePermitPoint(date: date, hashedID: hashedID).multiplied(by: s).encoded() })
    }

    /// RECOMBINE_G1: P + Q (the two trusted authorities' shares).
    public func recombineG1(_ p: [UInt8], _ q: [UInt8]) -> [UInt8]? {
        on({ MPin.add(G1Point<BN254CX>.self, p, q) }, { MPin.add(G1Point<BN254>.self, p, q) })
    }

    private static func add<C: PairingCurve>(_: G1Point<C>.Type, _ p: [UInt8], _ q: [UInt8]) -> [UInt8]? {
        guard let a = G1Point<C>(encoded: p), let b = G1Point<C>(encoded: q) else { return nil }
        return (a + b).encoded()
    }

    /// Whether `bytes` is a point of G1 in the 65-byte uncompressed form `04||x||y`: coordinates
    /// below p and y² = x³ + b (G1 is the whole curve group: its cofactor is 1). The same points
    /// RECOMBINE_G1 accepts as uncompressed input, without the addition and the inversion.
    package func isUncompressedG1(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == MPin.g1Size else { return false }
        return on({ (try? G1Point<BN254CX>.decode(bytes)) != nil }, { (try? G1Point<BN254>.decode(bytes)) != nil })
    }

    /// RECOMBINE_G2: P + Q.
    public func recombineG2(_ p: [UInt8], _ q: [UInt8]) -> [UInt8]? {
        func add<C: PairingCurve>(_: C.Type) -> [UInt8]? {
            guard let a = G2Point<C>(encoded: p), let b = G2Point<C>(encoded: q) else { return nil }
            return (a + b).encoded()
        }
        return on({ add(BN254CX.self) }, { add(BN254.self) })
    }

    /// EXTRACT_PIN: TOKEN - (pin mod 10000)·H(ID), with the raw id.
    public func extractPIN(id: [UInt8], pin: Int32, token: [UInt8]) -> [UInt8]? {
        extractFactor(id: id, factor: MPinEngine<BN254CX>.reducedPIN(pin), bits: MPin.pinBits, token: token)
    }

    /// EXTRACT_FACTOR: TOKEN - f·H(ID), f taken on its low `bits` bits.
    public func extractFactor(id: [UInt8], factor: Int32, bits: Int, token: [UInt8]) -> [UInt8]? {
        on(
            { MPinEngine<BN254CX>.extractFactor(id: id, factor: factor, bits: bits, token: token, restore: false) },
            { MPinEngine<BN254>.extractFactor(id: id, factor: factor, bits: bits, token: token, restore: false) })
    }

    /// RESTORE_FACTOR: TOKEN + f·H(ID).
    public func restoreFactor(id: [UInt8], factor: Int32, bits: Int, token: [UInt8]) -> [UInt8]? {
        on(
            { MPinEngine<BN254CX>.extractFactor(id: id, factor: factor, bits: bits, token: token, restore: true) },
            { MPinEngine<BN254>.extractFactor(id: id, factor: factor, bits: bits, token: token, restore: true) })
    }

    /// The outputs of CLIENT_1.
    public struct Client1Output: Sendable, Equatable {
        /// The random x, as given.
        public var x: [UInt8]
        /// SEC = TOKEN + pin·H(ID) (+ PERMIT when date ≠ 0).
        public var sec: [UInt8]
        /// U = x·H(ID).
        public var u: [UInt8]
        /// UT = x·(H(ID) + HT(date, ID)) when date ≠ 0.
        public var ut: [UInt8]?
        public init(x: [UInt8], sec: [UInt8], u: [UInt8], ut: [UInt8]?) {
            self.x = x
            self.sec = sec
            self.u = u
            self.ut = ut
        }
    }

    /// CLIENT_1 (docs/crypto.md §5); `date` 0 means no time permits.
    public func client1(date: UInt32, id: [UInt8], x: [UInt8], pin: Int32, token: [UInt8], permit: [UInt8]?)
        -> Client1Output?
    {
        on(
            { MPinEngine<BN254CX>.client1(date: date, id: id, x: x, pin: pin, token: token, permit: permit) },
            { MPinEngine<BN254>.client1(date: date, id: id, x: x, pin: pin, token: token, permit: permit) })
    }

    /// CLIENT_2: V = -((x + y) mod r)·SEC.
    public func client2(x: [UInt8], y: [UInt8], sec: [UInt8]) -> [UInt8]? {
        on({ MPinEngine<BN254CX>.client2(x: x, y: y, sec: sec) }, { MPinEngine<BN254>.client2(x: x, y: y, sec: sec) })
    }

    /// SERVER_1: HID = H(ID) and, when date ≠ 0, HTID = H(ID) + HT(date, ID).
    public func server1(date: UInt32, id: [UInt8]) -> (hid: [UInt8], htid: [UInt8]?) {
        on({ MPinEngine<BN254CX>.server1(date: date, id: id) }, { MPinEngine<BN254>.server1(date: date, id: id) })
    }

    /// The verdict of SERVER_2.
    public enum Server2Result: Sendable, Equatable {
        /// The pairing product is 1: the client knew the token and the PIN.
        case ok
        /// MPIN_BAD_PIN; with `errorValues`, E (the failed GT product) and F = e(Q, y·HID + U)
        /// for ``MPin/kangaroo(e:f:)``.
        case badPIN(e: [UInt8]?, f: [UInt8]?)
        /// An input did not decode as a point.
        case invalidPoint
    }

    /// SERVER_2: e(Q', V)·e(SST, y·(HTID or HID) + (UT or U)) == 1, Q' = Pa when given else Q.
    public func server2(
        date: UInt32, hid: [UInt8], htid: [UInt8]?, y: [UInt8], serverSecret: [UInt8],
        u: [UInt8], ut: [UInt8]?, v: [UInt8], pa: [UInt8]? = nil, errorValues: Bool = false
    ) -> Server2Result {
        on(
            {
                MPinEngine<BN254CX>.server2(
                    date: date, hid: hid, htid: htid, y: y, serverSecret: serverSecret,
                    u: u, ut: ut, v: v, pa: pa, errorValues: errorValues)
            },
            {
                MPinEngine<BN254>.server2(
                    date: date, hid: hid, htid: htid, y: y, serverSecret: serverSecret,
                    u: u, ut: ut, v: v, pa: pa, errorValues: errorValues)
            })
    }

    /// KANGAROO(E, F): the PIN error δ = PIN entered - PIN registered, 0 when the trap fails
    /// (about 10-20% of bad PINs), nil when E or F is not a 384-byte GT encoding.
    public func kangaroo(e: [UInt8], f: [UInt8]) -> Int? {
        on({ MPinEngine<BN254CX>.kangaroo(e: e, f: f) }, { MPinEngine<BN254>.kangaroo(e: e, f: f) })
    }

    /// GET_Y: SHA256(be32(TimeValue) || M) mod r, the one-pass challenge.
    public func getY(timeValue: UInt32, message: [UInt8]) -> [UInt8] {
        on(
            { MPinEngine<BN254CX>.getY(timeValue: timeValue, message: message) },
            { MPinEngine<BN254>.getY(timeValue: timeValue, message: message) })
    }

    /// The outputs of the one-pass CLIENT.
    public struct OnePassClientOutput: Sendable, Equatable {
        public var x: [UInt8]
        public var u: [UInt8]
        public var ut: [UInt8]?
        public var y: [UInt8]
        public var v: [UInt8]
        public init(x: [UInt8], u: [UInt8], ut: [UInt8]?, y: [UInt8], v: [UInt8]) {
            self.x = x
            self.u = u
            self.ut = ut
            self.y = y
            self.v = v
        }
    }

    /// One-pass CLIENT: CLIENT_1, Y = GET_Y(TimeValue, (UT if date ≠ 0 else U) || MESSAGE), CLIENT_2.
    public func client(
        date: UInt32, id: [UInt8], x: [UInt8], pin: Int32, token: [UInt8], permit: [UInt8]?,
        message: [UInt8]?, timeValue: UInt32
    ) -> OnePassClientOutput? {
        guard let c1 = client1(date: date, id: id, x: x, pin: pin, token: token, permit: permit) else { return nil }
        let m = ((date != 0 ? c1.ut : nil) ?? c1.u) + (message ?? [])
        let y = getY(timeValue: timeValue, message: m)
        guard let v = client2(x: x, y: y, sec: c1.sec) else { return nil }
        return OnePassClientOutput(x: x, u: c1.u, ut: c1.ut, y: y, v: v)
    }

    /// One-pass SERVER: SERVER_1, the same Y as the client, SERVER_2.
    public func server(
        date: UInt32, id: [UInt8], serverSecret: [UInt8], u: [UInt8], ut: [UInt8]?, v: [UInt8],
        message: [UInt8]?, timeValue: UInt32, pa: [UInt8]? = nil
    ) -> (y: [UInt8], result: Server2Result) {
        let (hid, htid) = server1(date: date, id: id)
        let m = ((date != 0 ? ut : nil) ?? u) + (message ?? [])
        let y = getY(timeValue: timeValue, message: m)
        return (
            y, server2(date: date, hid: hid, htid: htid, y: y, serverSecret: serverSecret, u: u, ut: ut, v: v, pa: pa)
        )
    }

    /// PRECOMPUTE: G1 = e(Q', TOKEN), G2 = e(Q', mapit(HCID)).
    public func precompute(token: [UInt8], hashedID: [UInt8], pa: [UInt8]? = nil) -> (g1: [UInt8], g2: [UInt8])? {
        on(
            { MPinEngine<BN254CX>.precompute(token: token, hashedID: hashedID, pa: pa) },
            { MPinEngine<BN254>.precompute(token: token, hashedID: hashedID, pa: pa) })
    }

    /// CLIENT_KEY: z = (R + H) mod r, g = G1·G2^pin (low 14 bits), CK = hash(3·(g^z).a, x·T), 16 bytes.
    public func clientKey(g1: [UInt8], g2: [UInt8], pin: Int32, r: [UInt8], x: [UInt8], h: [UInt8], t: [UInt8])
        -> [UInt8]?
    {
        on(
            { MPinEngine<BN254CX>.clientKey(g1: g1, g2: g2, pin: pin, r: r, x: x, h: h, t: t) },
            { MPinEngine<BN254>.clientKey(g1: g1, g2: g2, pin: pin, r: r, x: x, h: h, t: t) })
    }

    /// SERVER_KEY: g = e(SST, Z + h·HID), SK = hash(3·g.a, w·(UT or U)), 16 bytes.
    public func serverKey(
        z: [UInt8], serverSecret: [UInt8], w: [UInt8], h: [UInt8], hid: [UInt8], u: [UInt8], ut: [UInt8]?
    ) -> [UInt8]? {
        on(
            { MPinEngine<BN254CX>.serverKey(z: z, serverSecret: serverSecret, w: w, h: h, hid: hid, u: u, ut: ut) },
            { MPinEngine<BN254>.serverKey(z: z, serverSecret: serverSecret, w: w, h: h, hid: hid, u: u, ut: ut) })
    }

    /// HASH_ALL: SHA256(HCID || (UT or U) || V || Y || Z || T), 32 bytes.
    public func hashAll(hashedID: [UInt8], u: [UInt8], ut: [UInt8]?, v: [UInt8], y: [UInt8], z: [UInt8], t: [UInt8])
        -> [UInt8]
    {
        SHA256.hash(hashedID + (ut ?? u) + v + y + z + t)
    }

    /// GET_G1_MULTIPLE: x·G, or x·mapit(G) when `hashed` (G is then a hash such as HCID).
    public func g1Multiple(scalar: [UInt8], hashed: Bool, g: [UInt8]) -> [UInt8]? {
        func run<C: PairingCurve>(_: C.Type) -> [UInt8]? {
            let base = hashed ? MPinEngine<C>.mapToG1(g) : G1Point<C>(encoded: g)
            return base?.multiplied(by: scalar).encoded()
        }
        return on({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// GET_G2_MULTIPLE: x·G, or x⁻¹·G when `inverse`.
    public func g2Multiple(scalar: [UInt8], inverse: Bool, g: [UInt8]) -> [UInt8]? {
        func run<C: PairingCurve>(_: C.Type) -> [UInt8]? {
            guard let base = G2Point<C>(encoded: g) else { return nil }
            var k = scalar
            if inverse {
                guard let inv = Fr<C>(reducing: scalar).inverse() else { return nil }
                k = inv.bytes
            }
            return base.multiplied(by: k).encoded()
        }
        return on({ run(BN254CX.self) }, { run(BN254.self) })
    }

    /// GET_DVS_KEYPAIR: Pa = z⁻¹·Q (128 bytes) for the escrow-less variant; nil for z ≡ 0.
    public func dvsKeyPair(z: [UInt8]) -> [UInt8]? {
        on({ MPinEngine<BN254CX>.dvsKeyPair(z: z) }, { MPinEngine<BN254>.dvsKeyPair(z: z) })
    }

    /// e(Q, P) as 384 bytes.
    public func pairing(g2: [UInt8], g1: [UInt8]) -> [UInt8]? {
        on({ MPinEngine<BN254CX>.pairing(g2: g2, g1: g1) }, { MPinEngine<BN254>.pairing(g2: g2, g1: g1) })
    }

    /// today(): whole days since 1970-01-01 UTC (the DATE of time permits).
    public static func today(unixTime: Int64) -> UInt32 { UInt32(clamping: unixTime / 86400) }
}
