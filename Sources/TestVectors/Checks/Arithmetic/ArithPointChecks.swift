import GMPOracle
import MPinCrypto

/// The curve files (ecp on E: y² = x³ + 2, ecp2 on the twist E′: y² = x³ + (1 − i)): every output
/// field recomputed from the inputs. Scripts/ARITH-FIELDS.md documents each row.
enum ArithPointChecks<C: PairingCurve> {
    typealias T = ArithNotation

    static func exponent(_ n: GMPInteger) -> [UInt8] { n.bytes(atLeast: 32) }

    /// What `ECP_set` / `ECP2_set` leaves for an (x, y) that is not on the curve: the point at infinity,
    /// which AMCL prints from its raw coordinates (x = 0, y = 1, z = 0).
    static var rawInfinityG1: String { "00:01" }
    static var rawInfinityG2: String { "00:00&01:00" }

    // MARK: ecp

    static func ecp(_ l: inout ArithLedger, n: Int?) {
        let p1 = point1(&l, "ECP1")
        let p2 = point1(&l, "ECP2")
        let s1 = l.input("BIGscalar1", "a hex number", T.number)
        let s2 = l.input("BIGscalar2", "a hex number", T.number)
        let x1: (x: Fp<C>, y: Fp<C>)? = T.g1Coordinates(l.block["ECP1"]?.value ?? "")
        // ECPwrong: an (x, y) that must not be on the curve (it is read, and set must fail).
        let wrong: (x: Fp<C>, y: Fp<C>)? = T.g1Coordinates(l.block["ECPwrong"]?.value ?? "")
        let wrongPoint = wrong.map { G1Point<C>(x: $0.x, y: $0.y) }

        func out(_ key: String, needs: String, _ f: () -> G1Point<C>?) {
            l.output(key, needs: needs) { f().map { T.text($0) } }
        }
        out("ECPsum", needs: "ECP1 and ECP2") { p1.flatMap { p in p2.map { p + $0 } } }
        out("ECPneg", needs: "ECP1") { p1.map { -$0 } }
        out("ECPsub", needs: "ECP1 and ECP2") { p1.flatMap { p in p2.map { p - $0 } } }
        out("ECPdbl", needs: "ECP1") { p1.map { $0.doubled() } }
        out("ECPmul", needs: "ECP1 and BIGscalar1") { p1.flatMap { p in s1.map { p.multiplied(by: exponent($0)) } } }
        out("ECPpinmul", needs: "ECP1") { p1.map { $0.multiplied(by: [0x04, 0xD2]) } }  // PIN 1234
        out("ECPmul2", needs: "ECP1, ECP2, BIGscalar1 and BIGscalar2") {
            guard let p1, let p2, let s1, let s2 else { return nil }
            return p1.multiplied(by: exponent(s1)) + p2.multiplied(by: exponent(s2))
        }
        l.output("ECPwrong", needs: "x:y coordinates in ECPwrong") {
            guard let wrong, let wrongPoint else { return nil }
            guard wrongPoint == nil else { return "(on the curve: ECP_set would accept it)" }
            return "\(T.text(wrong.x)):\(T.text(wrong.y))"
        }
        l.output("ECPinf", needs: "ECPwrong") {
            guard let wrongPoint else { return nil }
            return wrongPoint.map { T.text($0) } ?? rawInfinityG1
        }
        out("ECPeven", needs: "ECP1") { x1.map { setX($0.x, odd: false) } }
        out("ECPodd", needs: "ECP1") { x1.map { setX($0.x, odd: true) } }
    }

    /// An input point: nil when absent, malformed or off the curve (the last two fail the field).
    static func point1(_ l: inout ArithLedger, _ key: String) -> G1Point<C>? {
        guard let (x, y): (Fp<C>, Fp<C>) = l.input(key, "x:y coordinates", T.g1Coordinates) else { return nil }
        guard let point = G1Point<C>(x: x, y: y) else {
            l.reject(key, "not on the curve y² = x³ + 2")
            return nil
        }
        return point
    }

    /// AMCL `ECP_setx(P, x, s)`: the point with this x and a y of parity s; infinity when none.
    static func setX(_ x: Fp<C>, odd: Bool) -> G1Point<C> {
        guard var y = (x * x * x + Fp(2)).squareRoot() else { return .infinity }
        if ArithTower.isOdd(y) != odd { y = -y }
        return G1Point<C>(x: x, y: y) ?? .infinity
    }

    // MARK: ecp2

    static func ecp2(_ l: inout ArithLedger, n: Int?) {
        let q = (1...4).map { point2(&l, "ECP2\($0)") }
        let s = (1...4).map { l.input("BIGscalar\($0)", "a hex number", T.number) }
        let x1: (x: Fp2<C>, y: Fp2<C>)? = T.g2Coordinates(l.block["ECP21"]?.value ?? "")
        let wrong: (x: Fp2<C>, y: Fp2<C>)? = T.g2Coordinates(l.block["ECP2wrong"]?.value ?? "")
        let wrongPoint = wrong.map { G2Point<C>(x: $0.x, y: $0.y) }

        func out(_ key: String, needs: String, _ f: () -> G2Point<C>?) {
            l.output(key, needs: needs) { f().map { T.text($0) } }
        }
        out("ECP2sum", needs: "ECP21 and ECP22") { q[0].flatMap { p in q[1].map { p + $0 } } }
        out("ECP2neg", needs: "ECP21") { q[0].map { -$0 } }
        out("ECP2sub", needs: "ECP21 and ECP22") { q[0].flatMap { p in q[1].map { p - $0 } } }
        out("ECP2dbl", needs: "ECP21") { q[0].map { $0.doubled() } }
        out("ECP2mul", needs: "ECP21 and BIGscalar1") {
            q[0].flatMap { p in s[0].map { p.multiplied(by: exponent($0)) } }
        }
        out("ECP2mul4", needs: "ECP21 … ECP24 and BIGscalar1 … BIGscalar4") {
            var sum = G2Point<C>.infinity
            for k in 0..<4 {
                guard let point = q[k], let scalar = s[k] else { return nil }
                sum = sum + point.multiplied(by: exponent(scalar))
            }
            return sum
        }
        out("ECP2set1", needs: "ECP21") { x1.map { setX($0.x) } }
        out("ECP2set2", needs: "ECP21") { x1.map { -setX($0.x) } }
        l.output("ECP2wrong", needs: "xre:xim&yre:yim coordinates in ECP2wrong") {
            guard let wrong, let wrongPoint else { return nil }
            guard wrongPoint == nil else { return "(on the twist: ECP2_set would accept it)" }
            return "\(T.text(wrong.x.a)):\(T.text(wrong.x.b))&\(T.text(wrong.y.a)):\(T.text(wrong.y.b))"
        }
        l.output("ECP2inf", needs: "ECP2wrong") {
            guard let wrongPoint else { return nil }
            return wrongPoint.map { T.text($0) } ?? rawInfinityG2
        }
    }

    static func point2(_ l: inout ArithLedger, _ key: String) -> G2Point<C>? {
        guard let (x, y): (Fp2<C>, Fp2<C>) = l.input(key, "xre:xim&yre:yim coordinates", T.g2Coordinates) else {
            return nil
        }
        guard let point = G2Point<C>(x: x, y: y) else {
            l.reject(key, "not on the twist y² = x³ + (1 − i)")
            return nil
        }
        return point
    }

    /// The point with this x whose y has imaginary part ≤ (p−1)/2 (the files' ECP2set1); infinity
    /// when x is not the abscissa of a point.
    static func setX(_ x: Fp2<C>) -> G2Point<C> {
        let rhs = x * x * x + Fp2<C>(.one, -Fp<C>.one)
        guard var y = ArithTower.squareRoot(rhs) else { return .infinity }
        if ArithTower.isUpperHalf(y.b) { y = -y }
        return G2Point<C>(x: x, y: y) ?? .infinity
    }
}
