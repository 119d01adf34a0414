import GMPOracle
import MPinCrypto

/// The field-arithmetic files (fp, fp2, fp4, fp12): every output field recomputed from the inputs.
/// Scripts/ARITH-FIELDS.md documents each row; `n` is the block's test number N.
enum ArithFieldChecks<C: PairingCurve> {
    typealias T = ArithNotation

    static func number(_ text: String) -> GMPInteger? { T.number(text) }

    /// Scalars as big-endian exponent bytes (at least one byte).
    static func exponent(_ n: GMPInteger) -> [UInt8] { n.bytes(atLeast: 32) }

    // MARK: fp

    static func fp(_ l: inout ArithLedger, n: Int?) {
        let one = l.input("FP_1", "a hex number", number)
        let two = l.input("FP_2", "a hex number", number)
        let x = one.map { Fp<C>(reducing: $0.bytes(atLeast: 32)) }
        let y = two.map { Fp<C>(reducing: $0.bytes(atLeast: 32)) }
        let needsBoth = "FP_1 and FP_2"
        l.output("FPadd", needs: needsBoth) { x.flatMap { x in y.map { T.text(x + $0) } } }
        l.output("FPsub", needs: needsBoth) { x.flatMap { x in y.map { T.text(x - $0) } } }
        l.output("FP_1nres", needs: "FP_1") { x.map { T.text($0) } }
        l.output("FP_2nres", needs: "FP_2") { y.map { T.text($0) } }
        l.output("FPmulmod", needs: needsBoth) { x.flatMap { x in y.map { T.text(x * $0) } } }
        l.output("FPsmallmul", needs: "FP_1") { x.map { T.text($0 * Fp(10)) } }
        l.output("FPsqr", needs: "FP_1") { x.map { T.text($0.squared()) } }
        l.output("FPreduce", needs: "FP_1") { x.map { T.text($0) } }
        l.output("FPneg", needs: "FP_1") { x.map { T.text(-$0) } }
        l.output("FPdiv2", needs: "FP_1") { x.map { T.text($0 * Fp<C>(2).inverse()!) } }
        l.output("FPinv", needs: "FP_1") { x.map { $0.inverse().map { T.text($0) } ?? "(no inverse)" } }
        // The exponent is the integer FP_2 itself, not reduced.
        l.output("FPexp", needs: needsBoth) { x.flatMap { x in two.map { T.text(x.power(exponent($0))) } } }
    }

    // MARK: fp2

    static func fp2(_ l: inout ArithLedger, n: Int?) {
        let x: Fp2<C>? = l.input("FP2_1", "an FP2 [re,im]", T.fp2)
        let y: Fp2<C>? = l.input("FP2_2", "an FP2 [re,im]", T.fp2)
        let sc = l.input("BIGsc", "a hex number", number)
        let k = sc.map { Fp<C>(reducing: $0.bytes(atLeast: 32)) }
        let half = Fp<C>(2).inverse()!
        func one(_ key: String, _ f: (Fp2<C>) -> Fp2<C>?) {
            l.output(key, needs: "FP2_1") { x.map { f($0).map { T.text($0) } ?? "(no result)" } }
        }
        l.output("FP2add", needs: "FP2_1 and FP2_2") { x.flatMap { x in y.map { T.text(x + $0) } } }
        l.output("FP2sub", needs: "FP2_1 and FP2_2") { x.flatMap { x in y.map { T.text(x - $0) } } }
        l.output("FP2mul", needs: "FP2_1 and FP2_2") { x.flatMap { x in y.map { T.text(x * $0) } } }
        one("FP2neg") { -$0 }
        one("FP2conj") { $0.conjugate() }
        l.output("FP2pmul", needs: "FP2_1 and BIGsc") { x.flatMap { x in k.map { T.text(Fp2(x.a * $0, x.b * $0)) } } }
        l.output("FP2imul", needs: "FP2_1 and the test number N") {
            x.flatMap { x in n.map { T.text(ArithTower.times(x, UInt64($0 - 1))) } }
        }
        one("FP2sqr") { $0.squared() }
        l.output("FP2pow", needs: "FP2_1 and BIGsc") { x.flatMap { x in sc.map { T.text(x.power(exponent($0))) } } }
        one("FP2inv") { $0.inverse() }
        one("FP2div2") { Fp2($0.a * half, $0.b * half) }
        one("FP2_mul_ip") { ArithTower.timesXi($0) }
        one("FP2_div_ip") { x in Fp2<C>(.one, .one).inverse().map { x * $0 } }
    }

    // MARK: fp4

    static func fp4(_ l: inout ArithLedger, n: Int?) {
        let what = "an FP4 [[..],[..]]"
        let x: Fp4<C>? = l.input("FP4_1", what, T.fp4)
        let y: Fp4<C>? = l.input("FP4_2", what, T.fp4)
        // XTR traces, named after the FP12s they are traces of.
        let c1: Fp4<C>? = l.input("FP12_1", what, T.fp4)
        let c2: Fp4<C>? = l.input("FP12_2", what, T.fp4)
        let c3: Fp4<C>? = l.input("FP12_3", what, T.fp4)
        let c4: Fp4<C>? = l.input("FP12_4", what, T.fp4)
        let sc: Fp2<C>? = l.input("FP2sc", "an FP2 [re,im]", T.fp2)
        let e1 = l.input("BIGsc1", "a hex number", number)
        let e2 = l.input("BIGsc2", "a hex number", number)
        func one(_ key: String, _ f: (Fp4<C>) -> Fp4<C>?) {
            l.output(key, needs: "FP4_1") { x.map { f($0).map { T.text($0) } ?? "(no result)" } }
        }
        func two(_ key: String, _ f: (Fp4<C>, Fp4<C>) -> Fp4<C>) {
            l.output(key, needs: "FP4_1 and FP4_2") { x.flatMap { x in y.map { T.text(f(x, $0)) } } }
        }
        two("FP4add") { $0 + $1 }
        two("FP4sub") { $0 - $1 }
        two("FP4mul") { $0 * $1 }
        one("FP4neg") { -$0 }
        one("FP4conj") { ArithTower.conj($0) }
        one("FP4nconj") { ArithTower.nconj($0) }
        l.output("FP4pmul", needs: "FP4_1 and FP2sc") { x.flatMap { x in sc.map { T.text(ArithTower.scaled(x, $0)) } } }
        l.output("FP4imul", needs: "FP4_1 and the test number N") {
            x.flatMap { x in n.map { T.text(ArithTower.times(x, UInt64($0 - 1))) } }
        }
        one("FP4sqr") { $0.squared() }
        one("FP4inv") { $0.inverse() }
        one("FP4mulj") { ArithTower.timesS($0) }
        l.output("FP4pow", needs: "FP4_1 and BIGsc1") { x.flatMap { x in e1.map { T.text(x.power(exponent($0))) } } }
        one("FP4frob") { ArithTower.frobenius($0) }
        // xtr_A(w, x, y, z) with the test's own FP4add and FP4sub as y and z.
        two("FP4_xtrA") { ArithXTR.add($0, $1, $0 + $1, $0 - $1) }
        one("FP4_xtrD") { ArithXTR.double($0) }
        l.output("FP4_xtrpow", needs: "FP12_1 and BIGsc1") {
            c1.flatMap { c in e1.map { T.text(ArithXTR.power(c, $0)) } }
        }
        l.output("FP4_xtrpow2", needs: "FP12_1 … FP12_4, BIGsc1 and BIGsc2") {
            guard let c1, let c2, let c3, let c4, let e1, let e2 else { return nil }
            return T.text(ArithXTR.power2(c1, c2, c3, c4, e2, e1))
        }
    }

    // MARK: fp12

    static func fp12(_ l: inout ArithLedger, n: Int?) {
        let what = "an FP12 [[[..]]]"
        let f1: Fp12<C>? = l.input("FP12_1", what, T.fp12)
        let f2: Fp12<C>? = l.input("FP12_2", what, T.fp12)
        let f3: Fp12<C>? = l.input("FP12_3", what, T.fp12)
        let f4: Fp12<C>? = l.input("FP12_4", what, T.fp12)
        let fc: Fp12<C>? = l.input("FP12_c", what, T.fp12)
        let e = (1...4).map { l.input("BIGsc\($0)", "a hex number", number) }
        let es = l.input("BIGscs", "a hex number", number)
        let order = l.input("BIGsco", "a hex number", number)
        let zero4 = Fp4<C>.zero
        // Line values as a D-type (c = 0, b.b = 0) and an M-type (b = 0, c.a = 0) twist makes them.
        let yD = f2.map { ArithTower.fp12($0.a, ArithTower.fp4($0.b.a, .zero), zero4) }
        let yM = f2.map { ArithTower.fp12($0.a, zero4, ArithTower.fp4(.zero, $0.c.b)) }
        func one(_ key: String, _ f: (Fp12<C>) -> Fp12<C>?) {
            l.output(key, needs: "FP12_1") { f1.map { f($0).map { T.text($0) } ?? "(no result)" } }
        }
        l.output("FP12smul_y_dtype", needs: "FP12_2") { yD.map { T.text($0) } }
        l.output("FP12smul_y_mtype", needs: "FP12_2") { yM.map { T.text($0) } }
        l.output("FP12smul_dtype", needs: "FP12_1 and FP12_2") { f1.flatMap { f in yD.map { T.text(f * $0) } } }
        l.output("FP12smul_mtype", needs: "FP12_1 and FP12_2") { f1.flatMap { f in yM.map { T.text(f * $0) } } }
        l.output("FP12mul", needs: "FP12_1 and FP12_2") { f1.flatMap { f in f2.map { T.text(f * $0) } } }
        one("FP12inv") { $0.inverse() }
        one("FP12frob") { $0.frobenius() }
        one("FP12conj") { $0.conjugate() }
        one("FP12usquare") { $0.unitarySquared() }
        one("FP12square") { $0.squared() }
        l.output("FP12pow", needs: "FP12_1 and BIGsc1") {
            f1.flatMap { f in e[0].map { T.text(f.power(exponent($0))) } }
        }
        l.output("FP12pinpow", needs: "FP12_1 and the test number N") {
            f1.flatMap { f in n.map { T.text(f.power(GMPInteger(UInt64($0)).bytes(atLeast: 1))) } }
        }
        l.output("FP12compows", needs: "FP12_c, BIGscs and BIGsco") {
            guard let fc, let es, let order else { return nil }
            return ArithXTR.compressedPower(fc, es, order: order).map { T.text($0) } ?? "(BIGsco is not usable)"
        }
        l.output("FP12compow", needs: "FP12_c, BIGsc1 and BIGsco") {
            guard let fc, let e1 = e[0], let order else { return nil }
            return ArithXTR.compressedPower(fc, e1, order: order).map { T.text($0) } ?? "(BIGsco is not usable)"
        }
        l.output("FP12pow4", needs: "FP12_1 … FP12_4 and BIGsc1 … BIGsc4") {
            guard let f1, let f2, let f3, let f4, let e1 = e[0], let e2 = e[1], let e3 = e[2], let e4 = e[3] else {
                return nil
            }
            let product =
                f1.power(exponent(e1)) * f2.power(exponent(e2)) * f3.power(exponent(e3))
                * f4.power(exponent(e4))
            return T.text(product)
        }
        l.output("FP4trace", needs: "FP12_1") { f1.map { T.text(ArithTower.trace($0)) } }
    }
}
