import MPinCrypto
import Testing

@Suite struct AccessNumberTests {
    /// docs/protocol.md §5.3: first six digits, raw checksum, full access number.
    @Test(arguments: [
        ("424170", 3, "4241703"), ("641879", 1, "6418791"), ("641979", 8, "6419798"),
        ("123456", 0, "1234560"), ("999999", 10, "9999990"), ("100000", 4, "1000004"),
        ("000001", 9, "0000019"), ("000000", 0, "0000000"),
    ])
    func workedExamples(six: String, raw: Int, full: String) {
        #expect(AccessNumber.rawChecksum(of: six) == raw)
        #expect(AccessNumber.complete(six) == full)
        #expect(AccessNumber.isValid(full))
    }

    @Test func problems() {
        #expect(AccessNumber.problem(with: "6419791") == .wrongCheckDigit(expected: 8, actual: 1))
        #expect(AccessNumber.problem(with: "") == .empty)
        #expect(AccessNumber.problem(with: "12a4560") == .notDigits)
        #expect(AccessNumber.problem(with: "123456") == .wrongLength(6))
        #expect(AccessNumber.problem(with: "12345600") == .wrongLength(8))
        #expect(AccessNumber.complete("12345") == nil)
        #expect(AccessNumber.complete("١٢٣٤٥٦") == nil)
        #expect(AccessNumber.problem(with: "6419791")!.description.contains("8"))
    }
}
