import OrderedJSON
import Testing

@Suite struct JSONWriterTests {
    @Test func canonicalWriterSortsAndIndents() throws {
        let value = try JSONParser.parse(#"{"b": {"d": [], "c": {}}, "a": "x/y\n"}"#)
        #expect(
            JSONWriter.canonical(value) == """
                {
                  "a": "x/y\\n",
                  "b": {
                    "c": {},
                    "d": []
                  }
                }

                """)
    }

    @Test func compactKeepsOrderUnlessSorted() throws {
        let value = try JSONParser.parse(#"{"b": [1, 2.50], "a": {"c": null}}"#)
        #expect(JSONWriter.compact(value) == #"{"b": [1, 2.50], "a": {"c": null}}"#)
        #expect(JSONWriter.compact(value, sorted: true) == #"{"a": {"c": null}, "b": [1, 2.50]}"#)
    }

    @Test func quotesOnlyQuoteBackslashAndControlCharacters() {
        #expect(JSONWriter.quoted("a/é😀\"\\\n\u{01}\u{7F}") == #""a/é😀\"\\\n\u0001\u007f""#)
    }

    @Test func sortsByUTF8BytesKeepingRepeatedNamesInOrder() {
        let value = JSONValue.object([.init("é", 1), .init("b", 2), .init("B", 3), .init("b", 4)])
        #expect(JSONWriter.compact(value, sorted: true) == #"{"B": 3, "b": 2, "b": 4, "é": 1}"#)
    }
}
