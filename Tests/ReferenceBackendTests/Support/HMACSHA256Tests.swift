import MPinCrypto
import Testing

@testable import ReferenceBackend

/// The backend's signing function: HMAC-SHA256 against RFC 4231's known answers, and the D-TA
/// request signatures built on it (docs/protocol.md §8).
@Suite struct HMACSHA256Tests {
    /// One of RFC 4231's test cases.
    struct Case: Sendable, CustomTestStringConvertible {
        var number: Int
        var key: [UInt8]
        var message: [UInt8]
        var expected: String
        var testDescription: String { "test case \(number)" }
    }

    /// RFC 4231 §4.2 to §4.5, §4.7 and §4.8: test cases 1 to 4, 6 and 7 (case 5 truncates the MAC,
    /// which the backend never does). Cases 6 and 7 have a key longer than the 64-byte block.
    static let cases: [Case] = [
        Case(
            number: 1, key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8),
            expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Case(
            number: 2, key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
            expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Case(
            number: 3, key: [UInt8](repeating: 0xAA, count: 20), message: [UInt8](repeating: 0xDD, count: 50),
            expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Case(
            number: 4, key: Array(UInt8(0x01)...UInt8(0x19)), message: [UInt8](repeating: 0xCD, count: 50),
            expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Case(
            number: 6, key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Case(
            number: 7, key: [UInt8](repeating: 0xAA, count: 131),
            message: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("RFC 4231 test cases", arguments: cases)
    func rfc4231(_ test: Case) {
        #expect(Hex.encode(HMACSHA256.mac(key: test.key, message: test.message)) == test.expected)
        if let text = String(validating: test.message, as: UTF8.self) {
            #expect(HMACSHA256.sign(key: test.key, text) == test.expected, "signed as text")
        }
    }

    /// The signatures the RPS gives and the D-TAs check: HMAC-SHA256 over the fields in order, in hex.
    @Test func requestSignatures() {
        let signer = RequestSigner(appKey: Array(UInt8(0)..<UInt8(32)))
        let expires = "2016-10-11T13:59:16Z"
        #expect(
            signer.serverSecret(appID: "app1", expires: expires)
                == "4861b608cf76f542ce81265e71d328c336d7861aa2563448cd145f255747cbde")
        #expect(
            signer.timePermit(hashMpinID: "abcd", date: 17_085)
                == "f0bb0115c81e06630d2944de6a3cc24d2296ca5bbbbba5482d0856135a35a4e8")
        #expect(
            signer.clientSecret(appID: "app1", hashMpinID: "aa", hashUserID: "bb", expires: expires)
                == "a6923e3f79e543b6412acb40af5d1ca5be9bd7e331afd23b7dccf4611d3528d0")
        #expect(
            signer.activateKey(mpinID: "7b22", regOTT: "ott")
                == "9d019954f4e48ed7b8af211e6a50ddc31d6ea671626155543fb7980c26e279ae")
    }

    @Test func constantTimeEquality() {
        #expect(HMACSHA256.equal("ab", "ab") && HMACSHA256.equal("", ""))
        #expect(!HMACSHA256.equal("ab", "ac") && !HMACSHA256.equal("ab", "abc") && !HMACSHA256.equal("ab", "AB"))
    }
}
