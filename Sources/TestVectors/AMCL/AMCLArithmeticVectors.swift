import MPinCrypto

/// The kinds of AMCL arithmetic vector file (`testVectors/{fp,fp2,fp4,fp12,ecp,ecp2}`).
public enum AMCLArithmeticKind: String, Sendable, CaseIterable {
    case fp, fp2, fp4, fp12, ecp, ecp2

    /// The kind of a file from its keys, else from its header (`FP4 ARITHMETICS - CURVE: …`); nil when
    /// neither tells. The fp4 file also has `FP12_1`… keys (XTR traces), and the ecp file a key `ECP2`
    /// (its second point), so the keys are tested most specific first.
    public static func detect(header: String, keys: Set<String>) -> AMCLArithmeticKind? {
        let byKeys: [(AMCLArithmeticKind, [String])] = [
            (.fp4, ["FP4_1", "FP4_2", "FP4_xtrA", "FP4mulj"]),
            (.fp12, ["FP12mul", "FP12compow", "FP12pow4", "FP12_c"]),
            (.fp2, ["FP2_1", "FP2_2", "FP2_mul_ip"]),
            (.fp, ["FP_1", "FP_2", "FPdiv2"]),
            (.ecp2, ["ECP21", "ECP22", "ECP2sum", "ECP2mul4"]),
            (.ecp, ["ECP1", "ECPsum", "ECPmul2"]),
        ]
        for (kind, markers) in byKeys where markers.contains(where: keys.contains) { return kind }
        let upper = header.uppercased()
        for (kind, tag) in [
            (AMCLArithmeticKind.fp12, "FP12 ARITHMETIC"), (.fp4, "FP4 ARITHMETIC"),
            (.fp2, "FP2 ARITHMETIC"), (.fp, "FP ARITHMETIC"),
        ] where upper.contains(tag) {
            return kind
        }
        return nil
    }
}

/// Checks AMCL's arithmetic vector files field by field on MPinCrypto.
///
/// Every output field of a block is recomputed from the block's inputs and compared with AMCL's
/// notation of the value (upper-case hex in whole bytes, `[..]` lists, `x:y`, `xre:xim&yre:yim`).
/// What each field means is in Scripts/ARITH-FIELDS.md; `Scripts/amcl_arith_reference.py` is an
/// independent Python reference of the same table. Operations that MPinCrypto's contract does not
/// offer (AMCL's XTR functions and `FP12_compow`, `pow4`, `mul2`/`mul4`, `pinmul`, `setx`, the Fp4
/// Frobenius, the sparse line values of `smul`) are built here on its public API.
///
/// Three fields depend on the block's test number N (`# test N`, 1 to 2^31 − 1): `FP2imul` and
/// `FP4imul` multiply by N − 1 and `FP12pinpow` raises to the power N. A field that is neither an
/// input nor an output of the kind is a failure, and so is an output that the block's inputs
/// determine but that the block lacks, and a block with no output to compare.
public enum AMCLArithmeticVectors {
    public static func check(blocks: [AMCLBlock], kind: AMCLArithmeticKind, curve: CurveID) -> [VectorVerdict] {
        switch curve {
        case .bn254cx: check(blocks: blocks, kind: kind, on: BN254CX.self)
        case .bn254: check(blocks: blocks, kind: kind, on: BN254.self)
        }
    }

    static func check<C: PairingCurve>(blocks: [AMCLBlock], kind: AMCLArithmeticKind, on _: C.Type) -> [VectorVerdict] {
        let fileKeys = Set(blocks.flatMap { $0.fields.map(\.key) })
        return blocks.enumerated().map { position, block in
            var ledger = ArithLedger(block: block, kind: kind, fileKeys: fileKeys)
            let n = ledger.testNumber(position: position + 1)
            switch kind {
            case .fp: ArithFieldChecks<C>.fp(&ledger, n: n)
            case .fp2: ArithFieldChecks<C>.fp2(&ledger, n: n)
            case .fp4: ArithFieldChecks<C>.fp4(&ledger, n: n)
            case .fp12: ArithFieldChecks<C>.fp12(&ledger, n: n)
            case .ecp: ArithPointChecks<C>.ecp(&ledger, n: n)
            case .ecp2: ArithPointChecks<C>.ecp2(&ledger, n: n)
            }
            return ledger.verdict
        }
    }
}
