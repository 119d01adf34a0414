/// One operation per call of each benchmarked primitive, specialised for the curve, so that a
/// benchmark driver in another module times the fast code (generic code is not specialised across
/// module boundaries). Inputs are fixed, derived from the generators; the driver does the timing.
package enum BenchmarkKernels {
    /// The operation names, in the order of the benchmark table.
    package static let names = [
        "fp_mul", "fp_inverse", "g1_mul", "g2_mul", "gt_pow", "miller_loop",
        "final_exponentiation", "pairing", "client_1_2", "server_2",
    ]

    /// (name, run) pairs; `run` performs one operation and returns a value that depends on it.
    package static func kernels(curve: CurveID) -> [(name: String, run: () -> Int)] {
        switch curve {
        case .bn254cx: return make(BN254CX.self)
        case .bn254: return make(BN254.self)
        }
    }

    static func make<C: PairingCurve>(_: C.Type) -> [(name: String, run: () -> Int)] {
        let mpin = MPin(curve: C.id)
        let scalar = SHA256.hash(Array("benchmark scalar".utf8))
        let x = Fr<C>(reducing: scalar).bytes
        let y = Fr<C>(reducing: SHA256.hash(x)).bytes
        // Affine (Z = 1) as decoded points are, and as mcl's benchmark inputs are.
        let p = G1Point<C>(G1Point<C>.generator.multiplied(by: x).p.normalized())
        var q = G2Point<C>.generator.multiplied(by: y)
        q.p = q.p.normalized()
        let gt = Pairing<C>.pair(q, p)
        let f = Pairing<C>.millerLoop(q, p)
        let fa = Fp<C>(reducing: scalar)
        let fb = Fp<C>(reducing: y)
        // A registered user for the M-Pin kernels: master secret s, token for PIN 1234, no permits.
        let id = Array("bench@example.com".utf8)
        let s = Fr<C>(reducing: SHA256.hash(id)).bytes
        let hcid = mpin.hashID(id)
        let cs = mpin.clientSecret(masterSecret: s, hashedID: hcid)!
        let token = mpin.extractPIN(id: id, pin: 1234, token: cs)!
        let sst = mpin.serverSecret(masterSecret: s)!
        let c1 = mpin.client1(date: 0, id: id, x: x, pin: 1234, token: token, permit: nil)!
        let v = mpin.client2(x: x, y: y, sec: c1.sec)!
        let (hid, _) = mpin.server1(date: 0, id: id)
        return [
            (
                "fp_mul",
                {
                    var acc = fa
                    for _ in 0..<1000 { acc = acc * fb }
                    return Int(acc.v.0 & 1)
                }
            ),
            ("fp_inverse", { Int((fa.inverse() ?? fa).v.0 & 1) }),
            ("g1_mul", { Int(p.multiplied(by: y).p.x.v.0 & 1) }),
            ("g2_mul", { Int(q.multiplied(by: x).p.x.a.v.0 & 1) }),
            // gt is a pairing's value, so in GT: the power without the membership test (as mcl's).
            ("gt_pow", { Int(gt.powerInGT(x).a.a.a.v.0 & 1) }),
            ("miller_loop", { Int(Pairing<C>.millerLoop(q, p).a.a.a.v.0 & 1) }),
            ("final_exponentiation", { Int(Pairing<C>.finalExponentiation(f).a.a.a.v.0 & 1) }),
            ("pairing", { Int(Pairing<C>.pair(q, p).a.a.a.v.0 & 1) }),
            (
                "client_1_2",
                {
                    let o = mpin.client1(date: 0, id: id, x: x, pin: 1234, token: token, permit: nil)!
                    return mpin.client2(x: x, y: y, sec: o.sec)!.count
                }
            ),
            (
                "server_2",
                {
                    mpin.server2(date: 0, hid: hid, htid: nil, y: y, serverSecret: sst, u: c1.u, ut: nil, v: v) == .ok
                        ? 1 : 0
                }
            ),
        ]
    }

    /// How many operations one call of the kernel performs (fp_mul runs 1000 per call).
    package static func operationsPerCall(_ name: String) -> Int { name == "fp_mul" ? 1000 : 1 }
}
