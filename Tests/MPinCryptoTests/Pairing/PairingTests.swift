import Foundation
import TestSupport
import Testing

@testable import MPinCrypto

struct PairingTests {
    /// The file produced by running AMCL C, read from ../shared/vectors at test time (never copied
    /// into the repository); its `PAIRING_GEN` is e(Q, P) of the generators.
    static let amclGenerated = SharedData.vectorPath("amcl/generated/amcl_c_vectors_BN254CX.txt")

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: amclGenerated),
            "needs ../shared/vectors/amcl/generated/amcl_c_vectors_BN254CX.txt, absent here"))
    func generatorPairingMatchesAMCL() throws {
        let text = try String(contentsOfFile: Self.amclGenerated, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("PAIRING_GEN = ") })
        let expected = line.dropFirst("PAIRING_GEN = ".count).trimmingCharacters(in: CharacterSet(charactersIn: ", \r"))
        #expect(expected.count == 768)
        let e = Pairing<BN254CX>.pair(.generator, .generator)
        #expect(Hex.encode(e.bytes) == expected)
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
        let eab = Pairing<C>.pair(
            G2Point<C>.generator.multiplied(by: a.bytes), G1Point<C>.generator.multiplied(by: b.bytes))
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
            #expect(
                Pairing<C>.multiMillerLoop([], prepared: [(prepared, p)]) == Pairing<C>.millerLoop(q, p),
                "round \(round)")
            #expect(
                Pairing<C>.product([(q, r)], prepared: [(C._generatorLines, p)])
                    == Pairing<C>.product([(.generator, p), (q, r)]),
                "round \(round)")
            #expect(
                Pairing<C>.product([(q, r)], prepared: [(prepared, p)]).bytes
                    == Pairing<C>.product([(q, p), (q, r)]).bytes,
                "round \(round)")
            #expect(
                Pairing<C>.product([(q, r)], prepared: [(prepared, .infinity)]) == Pairing<C>.pair(q, r),
                "round \(round)")
        }
        #expect(Pairing<C>.prepare(.infinity) == nil)
        #expect(Pairing<C>.multiMillerLoop([], prepared: []).isOne)
    }
}
