import Foundation
import MPinCrypto
import Testing

/// Hex, checked against Foundation's "%02x" for every byte value, on each input kind.
@Suite struct HexTests {
    @Test func everyByteEncodesAsFoundationFormatsIt() {
        let all = (0...255).map(UInt8.init)
        let expected = all.map { String(format: "%02x", $0) }.joined()
        #expect(Hex.encode(all) == expected)
        #expect(Hex.encode(all[16...]) == String(expected.dropFirst(32)))
        #expect(Hex.encode(all.lazy.map { $0 }) == expected)
        #expect(Hex.encode([UInt8]()) == "")
    }

    @Test func decodingTakesEitherCaseAndRefusesTheRest() {
        let all = (0...255).map(UInt8.init)
        #expect(Hex.decode(Hex.encode(all)) == all)
        #expect(Hex.decode(Hex.encode(all).uppercased()) == all)
        #expect(Hex.decode("0aFf"[...]) == [0x0A, 0xFF])
        #expect(Hex.decode("") == [])
        for bad in ["0", "0g", "g0", "0 ", "é0", "0x00", "+1"] {
            #expect(Hex.decode(bad) == nil, "\(bad)")
        }
    }
}
