import GMPOracle
import TestSupport
import Testing

/// Self-tests of `GMPInteger` against machine-word arithmetic and known facts.
@Suite struct GMPIntegerTests {
    @Test func hexRoundTripAndRejects() throws {
        let n = try #require(GMPInteger(hex: "0x2400000008702A0DB0BDDF647A6366D3243FD6EE18093EE1BE6623EF5C1B55B3"))
        #expect(n.hex == "2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3")
        #expect(n.description == "0x2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3")
        #expect(GMPInteger(hex: "-0x10") == GMPInteger(-16))
        #expect(GMPInteger(hex: "-0x10")?.description == "-0x10")
        #expect(GMPInteger(hex: "ff") == GMPInteger(255))
        #expect(GMPInteger().hex == "0")
        for bad in ["", "0x", "-", "12g", " 12", "12 ", "0x-1", "+1", "１２"] {
            #expect(GMPInteger(hex: bad) == nil, "accepted \(bad)")
        }
    }

    @Test func bytesRoundTrip() throws {
        var rng = SplitMix64(seed: SplitMix64.seedForRun())
        for length in 0...40 {
            let bytes = rng.bytes(length)
            let n = GMPInteger(bigEndian: bytes)
            let width = max(length, 1)
            let back = try #require(n.bigEndianBytes(count: width))
            #expect(back == [UInt8](repeating: 0, count: width - length) + bytes)
        }
        #expect(GMPInteger(bigEndian: [0, 0, 1, 2]) == GMPInteger(258))
        #expect(GMPInteger(258).bigEndianBytes(count: 4) == [0, 0, 1, 2])
        #expect(GMPInteger(0).bigEndianBytes(count: 2) == [0, 0])
        #expect(GMPInteger(258).bigEndianBytes(count: 1) == nil, "too narrow")
        #expect(GMPInteger(-1).bigEndianBytes() == nil, "negative")
        let max256 = GMPInteger(bigEndian: [UInt8](repeating: 0xFF, count: 32))
        #expect(max256 + GMPInteger(1) == GMPInteger(1) * GMPInteger(2).power(256))
        #expect(max256.bitWidth == 256 && GMPInteger(0).bitWidth == 0 && GMPInteger(1).bitWidth == 1)
    }

    @Test func arithmeticMatchesMachineWords() {
        var rng = SplitMix64(seed: SplitMix64.seedForRun())
        for _ in 0..<2000 {
            let a = rng.next() >> 1, b = rng.next() >> 1
            let ga = GMPInteger(a), gb = GMPInteger(b)
            #expect(ga + gb == GMPInteger(a + b))
            #expect(ga - gb == GMPInteger(Int(bitPattern: UInt(a)) - Int(bitPattern: UInt(b))))
            let (high, low) = a.multipliedFullWidth(by: b)
            #expect(ga * gb == GMPInteger(bigEndian: bytes64(high) + bytes64(low)))
            let m = b | 1
            #expect(ga.modulo(GMPInteger(m)) == GMPInteger(a % m))
            #expect((ga / GMPInteger(m)) == GMPInteger(a / m))
            #expect((ga < gb) == (a < b) && (ga == gb) == (a == b))
            #expect(ga.isOdd == (a & 1 == 1))
            #expect(ga.bit(5) == ((a >> 5) & 1 == 1))
        }
    }

    @Test func signedModuloIsNonNegative() {
        #expect(GMPInteger(-7).modulo(GMPInteger(5)) == GMPInteger(3))
        #expect(GMPInteger(7).modulo(GMPInteger(5)) == GMPInteger(2))
        #expect(GMPInteger(-10).modulo(GMPInteger(5)) == GMPInteger(0))
        #expect(GMPInteger(-7) / GMPInteger(2) == GMPInteger(-4), "floor division")
        #expect((-GMPInteger(5)).signum == -1 && GMPInteger().signum == 0 && GMPInteger(3).signum == 1)
    }

    @Test func powerModuloMatchesSquareAndMultiply() {
        var rng = SplitMix64(seed: SplitMix64.seedForRun())
        for _ in 0..<500 {
            let m = ((rng.next() >> 33) | 1) + 2  // odd, below 2^31 + 3, at least 3
            let base = rng.next() % m, exponent = rng.next() >> 40
            var expected: UInt64 = 1 % m, square = base, e = exponent
            while e > 0 {
                if e & 1 == 1 { expected = expected * square % m }
                square = square * square % m
                e >>= 1
            }
            #expect(GMPInteger(base).power(GMPInteger(exponent), modulo: GMPInteger(m)) == GMPInteger(expected))
        }
        #expect(GMPInteger(0).power(GMPInteger(0), modulo: GMPInteger(7)) == GMPInteger(1))
        #expect(GMPInteger(2).power(10) == GMPInteger(1024))
    }

    @Test func inverseAndJacobi() {
        #expect(GMPInteger(3).inverse(modulo: GMPInteger(7)) == GMPInteger(5))
        #expect(GMPInteger(6).inverse(modulo: GMPInteger(9)) == nil, "gcd 3")
        #expect(GMPInteger(0).inverse(modulo: GMPInteger(7)) == nil)
        #expect(GMPInteger(-3).inverse(modulo: GMPInteger(7)) == GMPInteger(2))
        // Squares mod 7 are 1, 2, 4.
        let symbols = (0..<7).map { GMPInteger($0).jacobi(GMPInteger(7)) }
        #expect(symbols == [0, 1, 1, -1, 1, -1, -1])
        #expect(GMPInteger(2).jacobi(GMPInteger(15)) == 1, "Jacobi, not Legendre: 2 is no square mod 15")
        #expect(GMPInteger(1_000_000_007).isProbablePrime())
        #expect(!GMPInteger(1_000_000_007 * 3).isProbablePrime())
    }

    @Test func hashingAgreesWithEquality() {
        let set: Set<GMPInteger> = [GMPInteger(5), GMPInteger(hex: "5")!, GMPInteger(bigEndian: [0, 5])]
        #expect(set.count == 1)
        #expect(GMPInteger(5) != GMPInteger(6))
    }

    private func bytes64(_ word: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) }
    }
}
