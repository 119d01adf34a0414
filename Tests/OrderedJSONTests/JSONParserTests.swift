import OrderedJSON
import Testing

@Suite struct JSONParserTests {
    @Test func keepsNumberLiteralsAndMemberOrder() throws {
        let value = try JSONParser.parse(#"{"b": 1.50, "a": [true, null, "x\u00e9"]}"#)
        #expect(value == .object([.init("b", .number("1.50")), .init("a", [true, nil, "xé"])]))
    }

    @Test func refusesARepeatedNameNamingBothPlaces() {
        let text = "{\n  \"events\": [1],\n  \"x\": {\"a\": 1, \"a\": 2},\n  \"events\": []\n}"
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            // The first repeat in document order is the inner "a", at line 3.
            return error.line == 3 && error.column == 17
                && error.message
                    == #"repeated member name "a" at $.x.a: first at line 3, column 9, again at line 3, column 17 (names in an object must be unique)"#
        }
        #expect {
            try JSONParser.parseDocument("[{\"ok\": 1}, {\"events\": [1],\n\"events\": []}]")
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == 2 && error.column == 1 && error.offset == 28
                && error.message.hasPrefix(
                    #"repeated member name "events" at $[1].events: first at line 1, column 14, again at line 2, column 1"#
                )
        }
        // The same name in different objects is fine.
        #expect(throws: Never.self) { try JSONParser.parse(#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#) }
    }

    @Test func keepsRepeatedNamesInOrderAndLooksUpTheLastWhenAsked() throws {
        let value = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#, duplicateMembers: .keep)
        #expect(value.objectMembers?.map(\.name) == ["a", "b", "a"])
        #expect(value["a"] == .number("3"))
        #expect(value.uniqueMembers == ["a": .number("3"), "b": .number("2")])
    }

    @Test func reportsLineAndColumn() {
        #expect {
            try JSONParser.parse("{\n  \"a\": 1,\n  \"b\" 2\n}")
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == 3 && error.column == 7 && error.message.contains("':'")
        }
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#" {"a": []} "#.utf8)) == .object([.init("a", [])]))
    }

    @Test func surrogatePairsAndEscapes() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00\/\b\f\n\r\t\"\\""#) == .string("😀/\u{08}\u{0C}\n\r\t\"\\"))
    }

    @Test func limitsNesting() throws {
        let deepest = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[" + deepest + "]") }
    }

    @Test(arguments: [
        "", " ", "{", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "01", "-", "1.", "1e", ".5", "+1", "\"\\x\"",
        "tru", "nul", "{\"a\":1} x", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\nb\"", "'a'",
        "{a:1}", "\u{FEFF}",
    ])
    func rejectsInvalid(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }
}
