import GMPOracle
import Testing

/// Self-tests of the `GMPPoint` value type.
@Suite struct GMPPointTests {
    @Test func infinityAndCoordinates() {
        let point = GMPPoint.affine(x: GMPInteger(3), y: GMPInteger(4))
        #expect(GMPPoint.infinity.isInfinity && !point.isInfinity)
        #expect(GMPPoint.infinity.coordinates == nil)
        #expect(point.coordinates?.x == GMPInteger(3) && point.coordinates?.y == GMPInteger(4))
        #expect(point.description == "(0x3, 0x4)" && GMPPoint.infinity.description == "O")
    }

    @Test func equalityIsCoordinateEquality() {
        let a = GMPPoint.affine(x: GMPInteger(3), y: GMPInteger(4))
        #expect(a == .affine(x: GMPInteger(hex: "3")!, y: GMPInteger(bigEndian: [4])))
        #expect(a != .affine(x: GMPInteger(3), y: GMPInteger(5)))
        #expect(a != .infinity && GMPPoint.infinity == .infinity)
        #expect(Set([a, .affine(x: GMPInteger(3), y: GMPInteger(4)), .infinity]).count == 2)
    }
}
