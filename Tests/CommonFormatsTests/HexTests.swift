import CommonFormats
import Testing

/// Lowercase hex out, either case in; anything but an even number of hex digits is nil.
@Suite struct HexTests {
    @Test func encode() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Hex.encode([UInt8](0...255)[250...]) == "fafbfcfdfeff")
    }

    @Test func decode() {
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("000fA5Ff") == [0x00, 0x0f, 0xa5, 0xff])
        let bytes = (0...255).map { UInt8($0) }
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
    }

    @Test(arguments: ["a", "abc", "0g", "zz", " 00", "00 ", "é0", "0x00"])
    func decodeRefuses(text: String) {
        #expect(Hex.decode(text) == nil)
    }
}
