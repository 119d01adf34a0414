import GMPOracle
import TestSupport
import Testing

/// Self-tests of `GMPField`: exhaustive in small fields, random identities in F_p and F_r.
@Suite struct GMPFieldTests {
    @Test(arguments: [7, 11, 19, 23, 43, 13, 17, 29])
    func smallFieldExhaustive(prime: Int) {
        let field = GMPField(modulus: GMPInteger(prime))
        var squares = Set<Int>()
        for y in 1..<prime { squares.insert(y * y % prime) }
        #expect(squares.count == (prime - 1) / 2)
        for x in 0..<prime {
            let gx = GMPInteger(x)
            #expect(field.legendre(gx) == (x == 0 ? 0 : (squares.contains(x) ? 1 : -1)))
            #expect(field.isSquare(gx) == squares.contains(x))
            if x == 0 {
                #expect(field.inverse(gx) == nil)
            } else {
                let inverse = field.inverse(gx)!
                #expect(field.multiply(gx, inverse) == GMPInteger(1))
            }
            #expect(field.power(gx, GMPInteger(prime - 1)) == GMPInteger(x == 0 ? 0 : 1), "Fermat")
            #expect(field.add(gx, field.negate(gx)) == GMPInteger(0))
            #expect(field.subtract(GMPInteger(0), gx) == field.negate(gx))
            #expect(field.square(gx) == field.multiply(gx, gx))
            if field.hasSimpleSquareRoot {
                let root = field.squareRoot(gx)
                if squares.contains(x) || x == 0 {
                    #expect(root.map(field.square) == gx)
                    #expect(root.map { field.legendre($0) != -1 } == true, "the principal root is a square")
                } else {
                    #expect(root == nil)
                }
            }
        }
        #expect(field.hasSimpleSquareRoot == (prime % 4 == 3))
    }

    @Test(arguments: GMPCurve.all)
    func largeFieldIdentities(curve: GMPCurve) {
        var rng = SplitMix64(seed: SplitMix64.seedForRun())
        let one = GMPInteger(1)
        for field in [curve.field, curve.scalarField] {
            let m = field.modulus
            let halfOrder = (m - one) / GMPInteger(2)
            for _ in 0..<200 {
                let x = field.reducing(bytes: rng.bytes(48))
                let y = field.reducing(bytes: rng.bytes(32))
                guard !x.isZero else { continue }
                #expect(field.multiply(x, field.inverse(x)!) == one, "inverse·x = 1")
                #expect(field.power(x, m - one) == one, "Fermat")
                let euler = field.power(x, halfOrder)
                #expect(euler == (field.legendre(x) == 1 ? one : m - one), "Euler's criterion")
                #expect(
                    field.multiply(field.add(x, y), field.subtract(x, y))
                        == field.subtract(field.square(x), field.square(y)))
                #expect(field.power(x, exponent: [0x03]) == field.multiply(x, field.square(x)))
                #expect(field.power(x, exponent: []) == one)
                let xx = field.square(x)
                #expect(field.legendre(xx) == 1)
                if field.hasSimpleSquareRoot {
                    let root = field.squareRoot(xx)
                    #expect(root == x || root == field.negate(x), "sqrt(x²) = ±x")
                    #expect(root.map(field.square) == xx, "sqrt² = x")
                    if field.legendre(x) == -1 { #expect(field.squareRoot(x) == nil) }
                }
            }
        }
        // p ≡ 3 (mod 4): −1 is not a square, and the square root is the simple exponentiation.
        #expect(curve.field.hasSimpleSquareRoot)
        #expect(curve.field.legendre(curve.p - one) == -1)
    }

    @Test(arguments: GMPCurve.all)
    func canonicalEncoding(curve: GMPCurve) {
        let field = curve.field
        let pBytes = curve.p.bigEndianBytes()!
        #expect(field.byteCount == 32)
        #expect(field.element(bytes: pBytes) == nil, "p itself is not canonical")
        let pMinusOne = curve.p - GMPInteger(1)
        #expect(field.element(bytes: pMinusOne.bigEndianBytes()!) == pMinusOne)
        #expect(field.element(bytes: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(field.element(bytes: [UInt8](repeating: 0, count: 33)) == nil)
        #expect(field.reducing(bytes: pBytes) == GMPInteger(0))
        #expect(field.reducing(bytes: [1] + pBytes) == field.element(GMPInteger(2).power(256)))
        #expect(field.bytes(curve.p + GMPInteger(5)) == [UInt8](repeating: 0, count: 31) + [5])
    }

    @Test func wrongValuesAreCaught() {
        let field = GMPCurve.bn254cx.field
        let x = GMPInteger(hex: "123456789abcdef")!
        let wrongInverse = field.add(field.inverse(x)!, GMPInteger(1))
        #expect(field.multiply(x, wrongInverse) != GMPInteger(1))
        let nonSquare = field.negate(field.square(x))  // −x² is no square as p ≡ 3 (mod 4)
        #expect(field.squareRoot(nonSquare) == nil)
        #expect(!field.isSquare(nonSquare) && !field.isSquare(GMPInteger(0)))
    }
}
