import CommonFormats
import MPinCrypto
import OrderedJSON
import Testing

@testable import ReferenceBackend

/// The backend's small helpers: hex, JSON in and out (query strings are CommonFormats' `QueryString`,
/// the calendar its `CivilTime`).
@Suite struct SupportTests {
    @Test func hex() {
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(Hex.decode("00AbfF") == [0x00, 0xAB, 0xFF])
        #expect(Hex.decode("abc") == nil && Hex.decode("zz") == nil && Hex.decode("") == [])
    }

    @Test func jsonIn() throws {
        let body = try JSONBody(Array("{\n\t\"userId\" : \"x\",\n\t\"mobile\" : 1, \"OTP\": true, \"n\": null}".utf8))
        #expect(try body.string("userId") == "x")
        #expect(body.truthy("OTP") && body.truthy("mobile") && !body.truthy("missing"))
        #expect(try body.optionalString("n") == nil)
        #expect(throws: APIError.self) { try body.string("mobile") }
        #expect(throws: APIError.self) { try body.hex("userId") }
        #expect(throws: APIError.self) {
            try JSONBody(Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8))
        }
    }

    /// Answers are minified, members in the order given, control characters escaped, U+007F and
    /// non-ASCII text as they are.
    @Test func jsonOut() {
        let value: JSONValue = .fields([
            ("b", "x\"\n\u{1}\u{7F}é/"), ("a", [1, true, nil, .integer(Int64.min)]), ("o", .fields([])),
        ])
        let expected = #"{"b":"x\"\n\u0001\#u{7F}é/","a":[1,true,null,-9223372036854775808],"o":{}}"#
        #expect(String(decoding: JSONWriter.minified(value), as: UTF8.self) == expected)
        #expect(Reply.json(.ok, value).answer.body == Array(expected.utf8))
    }

    @Test func accessNumberCheckDigits() {
        // docs/protocol.md §5.3.
        #expect(ReferenceBackend.accessNumberCheckDigit("424170") == 3)
        #expect(ReferenceBackend.accessNumberCheckDigit("641879") == 1)
        #expect(ReferenceBackend.accessNumberCheckDigit("123456") == 0)
        #expect(ReferenceBackend.accessNumberCheckDigit("100000") == 4)
        #expect(ReferenceBackend.accessNumberCheckDigit("000001") == 9)
        #expect(ReferenceBackend.accessNumberCheckDigit("999999") == nil)
        #expect(ReferenceBackend.accessNumberCheckDigit("12345") == nil)
    }
}
