import SDKSeams
import Testing

@testable import CurlTransport

/// The header lines libcurl hands over become the final response's fields: split at the first
/// colon, trimmed of spaces and tabs, folded lines joined, an interim response's fields dropped.
/// ASCII lines take a byte path; it must give what the character path gives.
@Suite struct ResponseAccumulatorTests {
    static let lines = [
        "HTTP/1.1 100 Continue\r\n", "X-Interim: dropped\r\n", "\r\n",
        "HTTP/1.1 200 OK\r\n",
        "Content-Type: application/json\r\n",
        "X-Spaces: \t padded value \t \r\n",
        "X-Empty:\r\n",
        "X-Colons: a:b: c\r\n",
        "X-Folded: first\r\n", " \tsecond part \r\n", "\tthird\r\n",
        "no colon here\r\n",
        ":\r\n",
        "X-Bare-LF: yes\n",
        "X-Inner-CR: a\rb\r\n",
        "\r\n",
    ]

    static let expected = [
        HTTPHeaders.Field(name: "Content-Type", value: "application/json"),
        HTTPHeaders.Field(name: "X-Spaces", value: "padded value"),
        HTTPHeaders.Field(name: "X-Empty", value: ""),
        HTTPHeaders.Field(name: "X-Colons", value: "a:b: c"),
        HTTPHeaders.Field(name: "X-Folded", value: "first second part third"),
        HTTPHeaders.Field(name: "", value: ""),
        HTTPHeaders.Field(name: "X-Bare-LF", value: "yes"),
        HTTPHeaders.Field(name: "X-Inner-CR", value: "a\rb"),
    ]

    @Test func asciiLinesGiveTheFieldsTheCharacterPathGives() {
        let bytes = ResponseAccumulator()
        let characters = ResponseAccumulator()
        for line in Self.lines {
            let raw = Array(line.utf8)
            raw.withUnsafeBytes { bytes.appendHeaderLine($0) }
            var stripped = raw
            while let last = stripped.last, last == 0x0A || last == 0x0D { stripped.removeLast() }
            if !stripped.isEmpty { characters.appendCharacters(stripped) }
        }
        #expect(bytes.headers == Self.expected)
        #expect(characters.headers == Self.expected)
    }

    @Test func linesBeyondASCIIAreSplitAsCharacters() {
        let accumulator = ResponseAccumulator()
        for line in [
            "HTTP/1.1 200 OK\r\n", "X-Name: caf\u{E9} \r\n", "X-Mark: \u{301}x\r\n", "X-Folded: a\r\n", " \u{E9}\r\n",
        ] {
            Array(line.utf8).withUnsafeBytes { accumulator.appendHeaderLine($0) }
        }
        // A space followed by a combining mark is one character, which the trimming keeps.
        #expect(
            accumulator.headers == [
                HTTPHeaders.Field(name: "X-Name", value: "caf\u{E9}"),
                HTTPHeaders.Field(name: "X-Mark", value: " \u{301}x"),
                HTTPHeaders.Field(name: "X-Folded", value: "a \u{E9}"),
            ])
    }
}
