import FlowRecording
import OrderedJSON
import Testing

/// `PortableJSON`: each difference reported with its kind, JSON path and line and column. That
/// jansson reads these documents otherwise is asserted against jansson itself in JSONOracleTests.
@Suite struct PortableJSONTests {
    func summary(_ text: String) -> [String] {
        (PortableJSON.findings(in: Array(text.utf8)) ?? []).map {
            "\($0.kind.rawValue) \($0.path) \($0.position.line):\($0.position.column)"
        }
    }

    @Test func eachDifferenceHasItsPathAndPlace() {
        let text = """
            {
              "big": 18446744073709551616,
              "list": [1, -9223372036854775809, 9223372036854775807],
              "real": 1e400,
              "text": "a\\u0000b",
              "a\\u0000": true,
              "twice": 1,
              "twice": {"deep": [2e308]}
            }
            """
        #expect(
            summary(text) == [
                "integerBeyond64Bits $.big 2:3",
                "integerBeyond64Bits $.list[1] 3:15",
                "realOverflow $.real 4:3",
                "nulInString $.text 5:3",
                #"nulInName $["a\u0000"] 6:3"#,
                "repeatedName $.twice 8:3",
                "realOverflow $.twice.deep[0] 8:22",
            ])
    }

    /// A member that a later one of the same name replaces has no place of its own: its findings
    /// point at the object holding it (jansson still reads it, and refuses the document for it).
    @Test func aReplacedMemberIsPlacedAtItsObject() {
        #expect(
            summary("[0,\n {\"d\": [1e999], \"d\": 0}]") == [
                "realOverflow $[1].d[0] 2:2",
                "repeatedName $[1].d 2:17",
            ])
    }

    @Test func aByteOrderMarkAndAScalarAtTheTopAreReported() {
        #expect(summary("\u{FEFF}[]") == ["byteOrderMark $ 1:1"])
        #expect(summary(" 12") == ["scalarRoot $ 1:2"])
        #expect(summary("\u{FEFF}\"x\"") == ["byteOrderMark $ 1:1", "scalarRoot $ 1:4"])
    }

    @Test func numbersJanssonReadsAlikeAreNotReported() {
        #expect(
            summary("[9223372036854775807, -9223372036854775808, -0, 1e20, 1e308, 1e-400, 0.1, 1.7976931348623157e308]")
                .isEmpty)
        #expect(summary("{\"a\": {\"a\": 1}, \"b\": [{\"a\": 2}]}").isEmpty, "the same name in different objects")
    }

    @Test func aTextThatIsNotJSONHasNoFindings() {
        #expect(PortableJSON.findings(in: Array("[1,]".utf8)) == nil)
        #expect(PortableJSON.findings(in: []) == nil)
        #expect(PortableJSON.findings(in: Array("{}".utf8)) == [])
    }

    @Test func messagesSayWhatJanssonDoes() throws {
        let findings = try #require(
            PortableJSON.findings(
                in: Array(#"{"n": 123456789012345678901234567890123456789012345, "a": 1, "a": 2}"#.utf8)))
        #expect(
            findings.map(\.description) == [
                "line 1, column 2: $.n: the integer 12345678901234567890…6789012345 (45 characters) is beyond 64 bits "
                    + "(-2^63 to 2^63-1): jansson refuses the document (json_int_t)",
                "line 1, column 62: $.a: the member name \"a\" appears 2 times: jansson keeps the last value silently "
                    + "(with JSON_REJECT_DUPLICATES it refuses the document)",
            ])
    }
}
