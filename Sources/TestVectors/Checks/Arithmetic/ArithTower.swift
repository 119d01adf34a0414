import GMPOracle
import MPinCrypto

/// Tower operations the arithmetic vectors need beyond MPinCrypto's public contract, written on top
/// of it: building Fp4/Fp12 values, AMCL's FP4 conjugations and `times_i`, the Frobenius on Fp4, an
/// Fp2 square root, and the constants p, r, ξ, X.
///
/// Tower (docs/crypto.md §2.2): Fp2 = Fp[i]/(i²+1); Fp4 = Fp2[s]/(s² − ξ), ξ = 1+i; Fp12 = Fp4[w]/(w³ − s).
enum ArithTower {
    static func fp4<C>(_ a: Fp2<C>, _ b: Fp2<C>) -> Fp4<C> {
        var x = Fp4<C>.zero
        x.a = a
        x.b = b
        return x
    }

    static func fp12<C>(_ a: Fp4<C>, _ b: Fp4<C>, _ c: Fp4<C>) -> Fp12<C> {
        var x = Fp12<C>.zero
        x.a = a
        x.b = b
        x.c = c
        return x
    }

    /// x·k for a small integer k.
    static func times<C>(_ x: Fp2<C>, _ k: UInt64) -> Fp2<C> { Fp2(x.a * Fp(k), x.b * Fp(k)) }
    static func times<C>(_ x: Fp4<C>, _ k: UInt64) -> Fp4<C> { fp4(times(x.a, k), times(x.b, k)) }

    /// x·ξ = x·(1+i).
    static func timesXi<C>(_ x: Fp2<C>) -> Fp2<C> { Fp2(x.a - x.b, x.a + x.b) }

    /// AMCL `FP4_conj`: a − b·s (= x^(p²)).
    static func conj<C>(_ x: Fp4<C>) -> Fp4<C> { fp4(x.a, -x.b) }

    /// AMCL `FP4_nconj`: −a + b·s.
    static func nconj<C>(_ x: Fp4<C>) -> Fp4<C> { fp4(-x.a, x.b) }

    /// AMCL `FP4_times_i`: x·s = ξ·b + a·s.
    static func timesS<C>(_ x: Fp4<C>) -> Fp4<C> { fp4(timesXi(x.b), x.a) }

    /// x·c for c in Fp2 (AMCL `FP4_pmul`).
    static func scaled<C>(_ x: Fp4<C>, _ c: Fp2<C>) -> Fp4<C> { fp4(x.a * c, x.b * c) }

    /// AMCL `FP12_trace`: 3·x.a, the Fp4 trace of a unitary x.
    static func trace<C>(_ x: Fp12<C>) -> Fp4<C> { x.a + x.a + x.a }

    static func modulus<C: PairingCurve>(_: C.Type) -> GMPInteger { GMPInteger(bigEndian: Fp<C>.modulusBytes) }
    static func order<C: PairingCurve>(_: C.Type) -> GMPInteger { GMPInteger(bigEndian: Fr<C>.modulusBytes) }

    /// The Frobenius constant X = ξ^((p−1)/6) (AMCL's `Fra + Frb·i`).
    static func frobeniusConstant<C>(_: C.Type) -> Fp2<C> {
        let exponent = (modulus(C.self) - GMPInteger(1)).quotientAndRemainder(dividingBy: GMPInteger(6)).quotient
        return Fp2<C>(.one, .one).power(exponent.bytes(atLeast: 32))
    }

    /// AMCL `FP4_frob`: x^p = conj(a) + conj(b)·X³·s.
    static func frobenius<C>(_ x: Fp4<C>) -> Fp4<C> {
        let constant = frobeniusConstant(C.self)
        return fp4(x.a.conjugate(), x.b.conjugate() * constant * constant * constant)
    }

    /// A square root of u in Fp2, or nil when u is not a square. The root is AMCL's (`FP2_sqrt`):
    /// re = ((a ± √(a²+b²))/2)^((p+1)/4), im = b/(2·re); callers pick the sign they need.
    static func squareRoot<C>(_ u: Fp2<C>) -> Fp2<C>? {
        if u.a.isZero && u.b.isZero { return u }
        if u.b.isZero {
            if let root = u.a.squareRoot() { return Fp2(root, .zero) }
            return (-u.a).squareRoot().map { Fp2(.zero, $0) }
        }
        guard let norm = (u.a * u.a + u.b * u.b).squareRoot(), let half = Fp<C>(2).inverse() else { return nil }
        var w = (u.a + norm) * half
        if !w.isSquare {
            w = (u.a - norm) * half
            guard w.isSquare else { return nil }
        }
        guard let re = w.squareRoot(), let twiceInverse = (re + re).inverse() else { return nil }
        let root = Fp2(re, u.b * twiceInverse)
        return root * root == u ? root : nil
    }

    /// True when the canonical integer of x exceeds (p−1)/2.
    static func isUpperHalf<C>(_ x: Fp<C>) -> Bool {
        let half = (modulus(C.self) - GMPInteger(1)).halved
        return half < GMPInteger(bigEndian: x.bytes)
    }

    /// True when the canonical integer of x is odd.
    static func isOdd<C>(_ x: Fp<C>) -> Bool { (x.bytes.last ?? 0) & 1 == 1 }
}

/// AMCL's XTR functions (`fp4.c`) and `FP12_compow`, statement for statement. Traces live in Fp4;
/// `conj` is the Fp4 conjugation a − b·s. With inputs that are not a consistent set of traces the
/// results depend on these exact ladders, which is why they are not replaced by plain powers.
enum ArithXTR {
    /// `FP4_xtr_D`: x² − 2·conj(x).
    static func double<C>(_ x: Fp4<C>) -> Fp4<C> {
        let c = ArithTower.conj(x)
        return x * x - (c + c)
    }

    /// `FP4_xtr_A(r, w, x, y, z)`: w·x − conj(x)·y + z.
    static func add<C>(_ w: Fp4<C>, _ x: Fp4<C>, _ y: Fp4<C>, _ z: Fp4<C>) -> Fp4<C> {
        w * x - ArithTower.conj(x) * y + z
    }

    /// `FP4_xtr_pow(r, x, n)`: the trace c_n from c_1 = x (Tr(g^n) when x = Tr(g)).
    static func power<C>(_ x: Fp4<C>, _ n: GMPInteger) -> Fp4<C> {
        let conj = ArithTower.conj(_:) as (Fp4<C>) -> Fp4<C>
        var a = ArithTower.fp4(ArithTower.times(Fp2<C>.one, 3), Fp2<C>.zero)
        guard !n.isZero else { return a }
        var sf = x
        var b = sf
        var c = double(sf)
        let parity = n.isOdd
        var v = n.halved
        if !parity { v = v - GMPInteger(1) }
        for index in stride(from: v.bitWidth - 1, through: 0, by: -1) {
            if !v.bit(index) {
                let t = b
                sf = conj(sf)
                c = conj(c)
                b = add(a, b, sf, c)
                sf = conj(sf)
                c = double(t)
                a = double(a)
            } else {
                let t = conj(a)
                a = double(b)
                b = add(c, b, sf, t)
                c = double(c)
            }
        }
        return parity ? b : c
    }

    /// `FP4_xtr_pow2(r, ck, cl, ckml, ckm2l, a, b)`: c_{a·l + b·k} from c_k, c_l, c_{k−l}, c_{k−2l}
    /// (Stam's double exponentiation).
    static func power2<C>(
        _ ck: Fp4<C>, _ cl: Fp4<C>, _ ckml: Fp4<C>, _ ckm2l: Fp4<C>, _ a: GMPInteger, _ b: GMPInteger
    ) -> Fp4<C> {
        let conj = ArithTower.conj(_:) as (Fp4<C>) -> Fp4<C>
        var e = a
        var d = b
        var cu = ck, cv = cl, cumv = ckml, cum2v = ckm2l
        var f2 = 0
        while d.isEven && e.isEven && !(d.isZero && e.isZero) {
            d = d.halved
            e = e.halved
            f2 += 1
        }
        while d != e {
            if e < d {
                if !(e * GMPInteger(4) < d) {
                    let w = d
                    d = e
                    e = w - e
                    let t = add(cu, cv, cumv, cum2v)
                    cum2v = conj(cumv)
                    cumv = cv
                    cv = cu
                    cu = t
                } else if d.isEven {
                    d = d.halved
                    let r = conj(cum2v)
                    let t = add(cu, cumv, cv, r)
                    cum2v = double(cumv)
                    cumv = t
                    cu = double(cu)
                } else if e.isOdd {
                    d = (d - e).halved
                    let t = add(cu, cv, cumv, cum2v)
                    cu = double(cu)
                    cum2v = conj(double(cv))
                    cv = t
                } else {
                    let w = d
                    d = e.halved
                    e = w
                    var t = double(cumv)
                    cumv = conj(cum2v)
                    cum2v = conj(t)
                    t = double(cv)
                    cv = cu
                    cu = t
                }
            }
            if d < e {
                if !(d * GMPInteger(4) < e) {
                    e = e - d
                    let t = add(cu, cv, cumv, cum2v)
                    cum2v = cumv
                    cumv = cu
                    cu = t
                } else if e.isEven {
                    let w = d
                    d = e.halved
                    e = w
                    var t = double(cumv)
                    cumv = conj(cum2v)
                    cum2v = conj(t)
                    t = double(cv)
                    cv = cu
                    cu = t
                } else if d.isOdd {
                    let w = e
                    e = d
                    d = (w - d).halved
                    let t = add(cu, cv, cumv, cum2v)
                    cumv = conj(cumv)
                    cum2v = conj(double(cu))
                    cu = double(cv)
                    cv = t
                } else {
                    d = d.halved
                    let r = conj(cum2v)
                    let t = add(cu, cumv, cv, r)
                    cum2v = double(cumv)
                    cumv = t
                    cu = double(cu)
                }
            }
        }
        var r = add(cu, cv, cumv, cum2v)
        for _ in 0..<f2 { r = double(r) }
        return power(r, d)
    }

    /// `FP12_compow(c, g, e, r)`: Tr(g^e) for g of order r. With m = p mod r, e = a + b·m; b = 0 uses
    /// `xtr_pow(Tr(g), e)`, otherwise `xtr_pow2(Tr(g^p), Tr(g), Tr(g^(p−1)), Tr(g^(p−2)), a, b)`.
    static func compressedPower<C>(_ g: Fp12<C>, _ e: GMPInteger, order r: GMPInteger) -> Fp4<C>? {
        guard !r.isZero else { return nil }
        let m = ArithTower.modulus(C.self).quotientAndRemainder(dividingBy: r).remainder
        guard !m.isZero else { return nil }
        let (b, a) = e.quotientAndRemainder(dividingBy: m)
        let c = ArithTower.trace(g)
        if b.isZero { return power(c, e) }
        var g2 = g.frobenius()
        let cp = ArithTower.trace(g2)
        let g1 = g.conjugate()
        g2 = g2 * g1
        let cpm1 = ArithTower.trace(g2)
        g2 = g2 * g1
        let cpm2 = ArithTower.trace(g2)
        return power2(cp, c, cpm1, cpm2, a, b)
    }
}
