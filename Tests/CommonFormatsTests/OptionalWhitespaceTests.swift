import CommonFormats
import Testing

/// OWS trimming (RFC 9110 §5.6.3): spaces and tabs at both ends go, everything else stays.
@Suite struct OptionalWhitespaceTests {
    @Test(arguments: [
        ("", ""), ("   ", ""), ("\t \t", ""), ("keep-alive", "keep-alive"), (" close ", "close"), ("\tTE\t", "TE"),
        (" a b ", "a b"), ("a\t b", "a\t b"), ("\r\nx\r\n", "\r\nx\r\n"), (" \u{00A0}x ", "\u{00A0}x"),
    ])
    func trims(_ text: String, _ expected: String) {
        #expect(text.trimmingOptionalWhitespace == expected)
        #expect(text[...].trimmingOptionalWhitespace == expected)
    }

    @Test func listElements() {
        let elements = "keep-alive,  Upgrade ,\tX-Hop\t, ".split(separator: ",").map(\.trimmingOptionalWhitespace)
        #expect(elements == ["keep-alive", "Upgrade", "X-Hop", ""])
    }
}
