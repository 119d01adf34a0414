import TestSupport
import Testing

@testable import MPinCrypto

struct FieldTests {
    typealias F = Fp<BN254CX>

    @Test func encodingRoundTripAndRange() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let x = F(reducing: rng.bytes(32))
            #expect(F(bytes: x.bytes) == x)
        }
        #expect(F(bytes: F.modulusBytes) == nil, "p itself is out of range")
        #expect(F(bytes: [UInt8](repeating: 0xff, count: 32)) == nil)
        #expect(F(bytes: [1, 2, 3]) == nil, "wrong length")
        // p + 5 reduces to 5; a 64-byte value reduces like its 32-byte tail plus 2^256·head.
        var pPlus5 = F.modulusBytes
        pPlus5[31] &+= 5
        #expect(F(reducing: pPlus5) == F(5))
        #expect(F(reducing: [0, 0, 7]) == F(7))
    }

    @Test func fieldIdentities() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<200 {
            let a = F(reducing: rng.bytes(40)), b = F(reducing: rng.bytes(40))
            #expect(a * b == b * a)
            #expect((a + b) - b == a)
            #expect(a - a == .zero)
            #expect(a.halved() + a.halved() == a)
            if let inv = a.inverse() { #expect(a * inv == .one) }
            if let s = a.squareRoot() {
                #expect(s.squared() == a)
                #expect(a.isSquare)
            } else {
                #expect(!a.isSquare)
            }
            #expect(a.power([3]) == a * a * a)
        }
        #expect(F.zero.inverse() == nil)
        #expect(!F.zero.isSquare, "zero is not a square for mapit (AMCL's jacobi == 1)")
    }

    @Test func scalarField() {
        typealias R = Fr<BN254>
        var rng = SplitMix64(seed: 3)
        for _ in 0..<100 {
            let a = R(reducing: rng.bytes(64))
            if let inv = a.inverse() { #expect(a * inv == .one) }
            #expect(R(bytes: a.bytes) == a)
        }
        #expect(R(bytes: R.modulusBytes) == nil)
    }

    @Test func towerIdentities() {
        var rng = SplitMix64(seed: 4)
        func fp2() -> Fp2<BN254CX> { Fp2(F(reducing: rng.bytes(32)), F(reducing: rng.bytes(32))) }
        func fp4() -> Fp4<BN254CX> { Fp4(fp2(), fp2()) }
        for _ in 0..<30 {
            let x = fp2(), y = fp2()
            #expect(x * y == y * x)
            #expect(x.squared() == x * x)
            #expect(x * x.inverse()! == .one)
            #expect(x.mulByXi().divByXi() == x)
            if let s = x.squareRoot() { #expect(s.squared() == x) }
            let u = fp4(), v = fp4()
            #expect(u.squared() == u * u)
            #expect(u * u.inverse()! == .one)
            #expect(u.mulByS() == u * Fp4(.zero, .one))
            #expect((u * v).frobenius() == u.frobenius() * v.frobenius())
            let f = Fp12(fp4(), fp4(), fp4()), g = Fp12(fp4(), fp4(), fp4())
            #expect(f.squared() == f * f)
            #expect(f * f.inverse()! == .one)
            #expect((f * g).frobenius() == f.frobenius() * g.frobenius())
            var h = f
            for _ in 0..<12 { h = h.frobenius() }
            #expect(h == f, "Frobenius has order 12")
            #expect(Fp12(bytes: f.bytes) == f)
            // After the easy part f^((p^6 - 1)(p^2 + 1)) the element is in the cyclotomic subgroup:
            // conj is the inverse there, and the Granger-Scott squaring agrees with squaring.
            let unitary = f.conjugate() * f.inverse()!
            let cyclotomic = unitary.frobenius().frobenius() * unitary
            #expect(cyclotomic.conjugate() * cyclotomic == .one)
            #expect(cyclotomic.unitarySquared() == cyclotomic.squared())
            #expect(cyclotomic.unitaryPower([0x01, 0x23]) == cyclotomic.power([0x01, 0x23]))
        }
        #expect(Fp12<BN254CX>(bytes: [UInt8](repeating: 0, count: 383)) == nil)
        #expect(Fp12<BN254CX>(bytes: [UInt8](repeating: 0xff, count: 384)) == nil)
    }
}
