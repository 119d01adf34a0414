import TestSupport
import Testing
@testable import MPinCrypto

struct PairingTests {
    /// e(Q, P) of the generators, from AMCL C (Vectors/amcl/generated/amcl_c_vectors_BN254CX.txt, PAIRING_GEN).
    static let pairingGenBN254CX = "1b774b5de25480c511d4cfb5f02b0278caef6966bdb0a0374388c14c6fd74b0018a6813f33347dbf4a3a34b8a30e00380dea2f7ed076e33b5b502abc46a7c09d16a906d4b562005671f38f9950b731e7a749f6eb0b283ef90331fd2c93dfa82e0457210a64b2b5509760dd0f76ab20ebba907b8fbb8baa0f4c9450904a49071c02d673f38f4e4bed6dcc6841fbd0485ac07e55d11a0cbbe1ef022b523288ef3f19991c7db17c71b4f6d48b3216bfc6e2521a86e6569c7ac35b477c6d95243ca10479ee2f619e987311a5e5f818c594d9a3c9f7c461e1a89be809484515e95f7d042aa02cbbfd71021d47ed2e9808ec6d4836c630c0e7dba52a093f7b30d5462611bd1e2779bfe60ef52d9ccab151c86ef2e2d53a7819a1b2bc24fccc12d91b680e7f3ec4398ca3a5758dcca8f6c7c049b1be2894fda724219a3d42c45ad853d21aef37661f78cc8ad36ef5641d8ed8aa20dcdeebd34199f571acf7eedf3b0f781365362603f081bd78b47cf6b7a9d389083278e3040f3aa2903deed3f73c725b"

    @Test func generatorPairingMatchesAMCL() {
        let e = Pairing<BN254CX>.pair(.generator, .generator)
        #expect(hex(e.bytes) == Self.pairingGenBN254CX)
    }

    @Test(arguments: [CurveID.bn254cx, .bn254])
    func bilinearAndNonDegenerate(curve: CurveID) {
        switch curve {
        case .bn254cx: check(BN254CX.self)
        case .bn254: check(BN254.self)
        }
    }

    func check<C: PairingCurve>(_: C.Type) {
        var rng = SplitMix64(seed: 31)
        let a = Fr<C>(reducing: rng.bytes(40)), b = Fr<C>(reducing: rng.bytes(40))
        let e = Pairing<C>.pair(.generator, .generator)
        #expect(!e.isOne, "non-degenerate")
        #expect(e.unitaryPower(Fr<C>.modulusBytes).isOne, "e has order r")
        let eab = Pairing<C>.pair(G2Point<C>.generator.multiplied(by: a.bytes), G1Point<C>.generator.multiplied(by: b.bytes))
        #expect(eab == e.unitaryPower((a * b).bytes))
        // Product of pairings with one final exponentiation, and e(Q, -P)·e(Q, P) = 1.
        let p = G1Point<C>.generator.multiplied(by: a.bytes), q = G2Point<C>.generator.multiplied(by: b.bytes)
        #expect(Pairing<C>.product([(q, p), (.generator, .generator)]) == Pairing<C>.pair(q, p) * e)
        #expect(Pairing<C>.product([(q, p), (q, -p)]).isOne)
        #expect(Pairing<C>.pair(q, .infinity).isOne)
    }

    /// Prepared lines give the Miller loop's exact value: the same bytes before and after the final
    /// exponentiation as the loop that walks Q itself, alone, beside live pairs, with the generator's
    /// cached lines, and with P at infinity (whose lines are skipped either way).
    @Test(arguments: [CurveID.bn254cx, .bn254])
    func preparedLinesGiveTheSameValues(curve: CurveID) {
        switch curve {
        case .bn254cx: checkPrepared(BN254CX.self)
        case .bn254: checkPrepared(BN254.self)
        }
    }

    func checkPrepared<C: PairingCurve>(_: C.Type) {
        var rng = SplitMix64(seed: 0x6c69_6e65)
        for round in 0..<6 {
            let p = G1Point<C>.generator.multiplied(by: Fr<C>(reducing: rng.bytes(40)).bytes)
            let r = G1Point<C>.generator.multiplied(by: Fr<C>(reducing: rng.bytes(40)).bytes)
            let q = G2Point<C>.generator.multiplied(by: Fr<C>(reducing: rng.bytes(40)).bytes)
            let prepared = Pairing<C>.prepare(q)!
            #expect(Pairing<C>.multiMillerLoop([], prepared: [(prepared, p)]) == Pairing<C>.millerLoop(q, p), "round \(round)")
            #expect(Pairing<C>.product([(q, r)], prepared: [(C._generatorLines, p)]) == Pairing<C>.product([(.generator, p), (q, r)]),
                    "round \(round)")
            #expect(Pairing<C>.product([(q, r)], prepared: [(prepared, p)]).bytes == Pairing<C>.product([(q, p), (q, r)]).bytes,
                    "round \(round)")
            #expect(Pairing<C>.product([(q, r)], prepared: [(prepared, .infinity)]) == Pairing<C>.pair(q, r), "round \(round)")
        }
        #expect(Pairing<C>.prepare(.infinity) == nil)
        #expect(Pairing<C>.multiMillerLoop([], prepared: []).isOne)
    }
}
