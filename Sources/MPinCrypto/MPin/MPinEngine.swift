/// The M-Pin functions of AMCL (docs/crypto.md §4-§5), generic over the curve and specialised for each
/// one inside this module. Inputs and outputs are AMCL encodings; a nil result means that an input
/// point or scalar did not decode (AMCL's MPIN_INVALID_POINT).
///
/// Every function is constant time in its secrets (the scalars x, y, w, r, z, master-secret shares,
/// PINs and factors; tokens, client and server secrets, permits, precomputed GT values): docs/security.md,
/// "Constant-time secrets", checked by `make ct-check`. Public by design: whether inputs decode,
/// whether a result is infinity, whether a scalar inverts, the SERVER_2 verdict. Variable time,
/// on public data: ``mapToG1(_:)`` (a hash of the identity) and ``kangaroo(e:f:)``.
enum MPinEngine<C: PairingCurve> {
    typealias P1 = G1Point<C>
    typealias P2 = G2Point<C>

    static func g1(_ bytes: [UInt8]) -> P1? { P1(encoded: bytes) }
    static func g2(_ bytes: [UInt8]) -> P2? { P2(encoded: bytes) }

    /// mapit(h): x = OS2I(h[0..<32]) mod p, incremented until x³ + 2 is a non-zero square; y is the
    /// even square root (docs/crypto.md §4). Cofactor 1, so the point is in G1. Variable time: the hash
    /// is of the identity, which is public.
    ///
    /// AMCL tests jacobi(rhs) = 1 and then takes s = rhs^((p+1)/4). Since p ≡ 3 (mod 4), a non-zero
    /// rhs is a square exactly when s² = rhs, so one exponentiation per candidate decides both
    /// (``Fp/squareRoot()`` checks s²): the same points, half the exponentiations.
    static func mapToG1(_ hash: [UInt8]) -> P1 {
        var x = Fp<C>(reducing: Array(hash.prefix(32)))
        while true {
            let rhs = x.squared() * x + Fp(2)
            if !rhs.isZero, var y = rhs.squareRoot() {
                if y.isOdd { y = -y }
                return P1(x: x, y: y)!
            }
            x = x + .one
        }
    }

    /// H(ID) = mapit(SHA256(ID)).
    static func hashToG1(id: [UInt8]) -> P1 { mapToG1(SHA256.hash(id)) }

    /// AT = mapit(SHA256(be32(date) || HCID)).
    static func timePermitPoint(date: UInt32, hashedID: [UInt8]) -> P1 {
        mapToG1(SHA256.hash(be32(date) + hashedID))
    }

    /// pin·P with AMCL's `pinmul`: the low `bits` bits of the two's-complement value of pin (`bits`
    /// public, taken in 0...32). Constant time in the PIN: ⌈bits/4⌉ fixed windows.
    static func pinMultiple(_ point: P1, _ factor: Int32, bits: Int) -> P1 {
        let width = min(max(bits, 0), 32)
        let mask = width == 32 ? UInt32.max : (UInt32(1) << UInt32(width)) - 1
        let k = UInt64(UInt32(bitPattern: factor) & mask)
        return point.multiplied(byLimbs: (k, 0, 0, 0), bits: width)
    }

    /// The C remainder pin % 10000 (sign follows the dividend), as AMCL's CLIENT_1 and EXTRACT_PIN do.
    static func reducedPIN(_ pin: Int32) -> Int32 { pin % Int32(MPin.maxPIN) }

    static func extractFactor(id: [UInt8], factor: Int32, bits: Int, token: [UInt8], restore: Bool) -> [UInt8]? {
        guard let t = g1(token) else { return nil }
        let f = pinMultiple(hashToG1(id: id), factor, bits: bits)
        return (restore ? t + f : t - f).encoded()
    }

    static func client1(date: UInt32, id: [UInt8], x: [UInt8], pin: Int32, token: [UInt8], permit: [UInt8]?) -> MPin
        .Client1Output?
    {
        guard let t = g1(token) else { return nil }
        let a = hashToG1(id: id)
        var sec = t + pinMultiple(a, reducedPIN(pin), bits: MPin.pinBits)
        var ut: [UInt8]? = nil
        if date != 0 {
            if let permit {
                guard let tp = g1(permit) else { return nil }
                sec = sec + tp
            }
            let at = timePermitPoint(date: date, hashedID: SHA256.hash(id))
            ut = (a + at).multiplied(by: x).encoded()
        }
        let u = a.multiplied(by: x).encoded()
        return MPin.Client1Output(x: x, sec: sec.encoded(), u: u, ut: ut)
    }

    /// V = -((x + y) mod r)·SEC.
    static func client2(x: [UInt8], y: [UInt8], sec: [UInt8]) -> [UInt8]? {
        guard let s = g1(sec) else { return nil }
        let k = Fr<C>(reducing: x) + Fr<C>(reducing: y)
        return (-s.multiplied(by: k.bytes)).encoded()
    }

    static func server1(date: UInt32, id: [UInt8]) -> (hid: [UInt8], htid: [UInt8]?) {
        let a = hashToG1(id: id)
        guard date != 0 else { return (a.encoded(), nil) }
        let at = timePermitPoint(date: date, hashedID: SHA256.hash(id))
        return (a.encoded(), (a + at).encoded())
    }

    static func server2(
        date: UInt32, hid: [UInt8], htid: [UInt8]?, y: [UInt8], serverSecret: [UInt8],
        u: [UInt8], ut: [UInt8]?, v: [UInt8], pa: [UInt8]?, errorValues: Bool
    ) -> MPin.Server2Result {
        guard let sQ = g2(serverSecret), let vv = g1(v), let hidPoint = g1(hid), let uPoint = g1(u) else {
            return .invalidPoint
        }
        var paPoint: P2?
        if let pa {
            guard let point = g2(pa) else { return .invalidPoint }
            paPoint = point
        }
        var r: P1
        if date != 0 {
            guard let htid, let ht = g1(htid), let ut, let utPoint = g1(ut) else { return .invalidPoint }
            r = ht.multiplied(by: y) + utPoint
        } else {
            r = hidPoint.multiplied(by: y) + uPoint
        }
        // e(Q, V)·e(sQ, R), Q = PA or the generator, whose lines are prepared once per process.
        let g =
            if let paPoint { Pairing<C>.product([(paPoint, vv), (sQ, r)]) } else {
                Pairing<C>.product([(sQ, r)], prepared: [(C._generatorLines, vv)])
            }
        var verdict = g.oneMask
        SecretBoundary.declassify(&verdict)
        if verdict != 0 { return .ok }
        guard errorValues else { return .badPIN(e: nil, f: nil) }
        let f = Pairing<C>.pair(paPoint ?? .generator, hidPoint.multiplied(by: y) + uPoint)
        return .badPIN(e: g.bytes, f: f.bytes)
    }

    /// Pollard's kangaroo in GT (AMCL `MPIN_KANGAROO`): ten jumps F^(2^k), a trap of 200 tame
    /// steps, at most 800 wild steps or a distance of 10000. Variable time by nature (the walk's
    /// jumps and its end depend on E and F, the values of a failed login). Returns δ with
    /// E = F^(-δ) (PIN entered minus PIN registered), or 0 when the trap fails. The jump index is
    /// limb 0 of AMCL's 64-bit Montgomery form (56-bit limbs, radix 2^280) of the w⁰ real
    /// coefficient, mod 10.
    static func kangaroo(e: [UInt8], f: [UInt8]) -> Int? {
        guard var ge = Fp12<C>(bytes: e), var gf = Fp12<C>(bytes: f) else { return nil }
        let ts = 10, trap = 200
        var distance = [Int](repeating: 0, count: ts)
        var table = [Fp12<C>](repeating: .one, count: ts)
        var t = gf
        var s = 1
        for m in 0..<ts {
            distance[m] = s
            table[m] = t
            s *= 2
            t = t.unitarySquared()
        }
        func jump(_ x: Fp12<C>) -> Int {
            let radix = Fp<C>(montgomery: C._amclRadix)
            let limb0 = (x.a.a.a * radix).canonical.0 & ((1 << 56) - 1)
            return Int(limb0 % UInt64(ts))
        }
        t = .one
        var dn = 0
        for _ in 0..<trap {
            let i = jump(t)
            t = t * table[i]
            dn += distance[i]
        }
        gf = t.conjugate()
        var steps = 0
        var dm = 0
        var result = 0
        while dm - dn < MPin.maxPIN {
            steps += 1
            if steps > 4 * trap { break }
            let i = jump(ge)
            ge = ge * table[i]
            dm += distance[i]
            if ge == t {
                result = dm - dn
                break
            }
            if ge == gf {
                result = dn - dm
                break
            }
        }
        if steps > 4 * trap || dm - dn >= MPin.maxPIN { result = 0 }
        return result
    }

    /// Y = SHA256(be32(t) || M) mod r (no prefix when t = 0), 32 bytes.
    static func getY(timeValue: UInt32, message: [UInt8]) -> [UInt8] {
        let digest = SHA256.hash((timeValue > 0 ? be32(timeValue) : []) + message)
        return Fr<C>(reducing: digest).bytes
    }

    static func precompute(token: [UInt8], hashedID: [UInt8], pa: [UInt8]?) -> (g1: [UInt8], g2: [UInt8])? {
        guard let t = g1(token) else { return nil }
        var q = P2.generator
        if let pa {
            guard let p = g2(pa) else { return nil }
            q = p
        }
        let a = mapToG1(hashedID)
        return (Pairing<C>.pair(q, t).bytes, Pairing<C>.pair(q, a).bytes)
    }

    /// SHA256(c.a.re || c.a.im || c.b.re || c.b.im || W.x || W.y)[0..<16].
    static func keyHash(_ c: Fp4<C>, _ w: P1) -> [UInt8] {
        guard let (wx, wy) = w.affine else { return [] }
        let data = c.a.a.bytes + c.a.b.bytes + c.b.a.bytes + c.b.b.bytes + wx.bytes + wy.bytes
        return Array(SHA256.hash(data).prefix(MPin.keySize))
    }

    static func clientKey(g1 e1: [UInt8], g2 e2: [UInt8], pin: Int32, r: [UInt8], x: [UInt8], h: [UInt8], t: [UInt8])
        -> [UInt8]?
    {
        guard let f1 = Fp12<C>(bytes: e1), let f2 = Fp12<C>(bytes: e2), let tp = g1(t) else { return nil }
        let z = Fr<C>(reducing: r) + Fr<C>(reducing: h)
        let mask = UInt32((1 << MPin.pinBits) - 1)
        let pinBits = UInt64(UInt32(bitPattern: pin) & mask)
        let g = f1 * f2.unitaryPower(limbs: (pinBits, 0, 0, 0), bits: MPin.pinBits)
        let c = g.unitaryPower(z.bytes).trace
        return keyHash(c, tp.multiplied(by: x))
    }

    static func serverKey(
        z: [UInt8], serverSecret: [UInt8], w: [UInt8], h: [UInt8], hid: [UInt8], u: [UInt8], ut: [UInt8]?
    ) -> [UInt8]? {
        guard let zp = g1(z), let sQ = g2(serverSecret), let hp = g1(hid), let up = g1(u) else { return nil }
        var target = up
        if let ut {
            guard let utp = g1(ut) else { return nil }
            target = utp
        }
        let hScalar = Fr<C>(reducing: h)
        let g = Pairing<C>.pair(sQ, zp + hp.multiplied(by: hScalar.bytes))
        return keyHash(g.trace, target.multiplied(by: w))
    }

    static func dvsKeyPair(z: [UInt8]) -> [UInt8]? {
        guard let inv = Fr<C>(reducing: z).inverse() else { return nil }
        return P2.generator.multiplied(by: inv.bytes).encoded()
    }

    static func pairing(g2 q: [UInt8], g1 p: [UInt8]) -> [UInt8]? {
        guard let qq = g2(q), let pp = g1(p) else { return nil }
        return Pairing<C>.pair(qq, pp).bytes
    }
}

@inline(__always)
func be32(_ n: UInt32) -> [UInt8] {
    [
        UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16),
        UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n),
    ]
}
