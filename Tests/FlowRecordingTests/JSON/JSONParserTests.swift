@testable import FlowRecording
import Testing

@Suite struct JSONParserTests {
    @Test func keepsNumberLiteralsAndMemberOrder() throws {
        let value = try JSONParser.parse(#"{"b": 1.50, "a": [true, null, "x\u00e9"]}"#)
        #expect(value == .object([.init("b", .number("1.50")), .init("a", [true, nil, "xé"])]))
    }

    @Test func reportsLineAndColumn() {
        #expect {
            try JSONParser.parse("{\n  \"a\": 1,\n  \"b\" 2\n}")
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == 3 && error.column == 7 && error.message.contains("':'")
        }
    }

    @Test func semanticEqualityIgnoresOrderAndNumberSpelling() throws {
        let a = try JSONParser.parse(#"{"x": 1, "y": [1, 2]}"#)
        let b = try JSONParser.parse(#"{"y": [1.0, 2], "x": 1}"#)
        #expect(a.semanticallyEquals(b))
        #expect(a != b)
    }

    @Test func canonicalWriterSortsAndIndents() throws {
        let value = try JSONParser.parse(#"{"b": {"d": [], "c": {}}, "a": "x/y\n"}"#)
        #expect(JSONWriter.canonical(value) == """
            {
              "a": "x/y\\n",
              "b": {
                "c": {},
                "d": []
              }
            }

            """)
    }

    @Test func diffNamesPaths() throws {
        let a = try JSONParser.parse(#"{"mpinResponse": {"authOTT": "aa"}, "list": [1, 2]}"#)
        let b = try JSONParser.parse(#"{"mpinResponse": {"authOTT": "ab"}, "list": [1], "extra": true}"#)
        let paths = JSONDiff.differences(a, b).map(\.path)
        #expect(paths == ["$.mpinResponse.authOTT", "$.list[1]", "$.extra"])
    }
}
