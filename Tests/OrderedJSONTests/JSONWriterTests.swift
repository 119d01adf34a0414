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

    /// The streamed form is `canonicalBytes` byte for byte, whatever the piece size, with the
    /// array's elements made one at a time.
    @Test(arguments: [1, 7, 64, 1 << 20])
    func streamingWritesTheCanonicalBytes(chunk: Int) throws {
        let items: [JSONValue] = [
            try JSONParser.parse(#"{"z": [1, {"y": "é\u0001"}], "a": {}}"#), .null, .array([]), "text",
        ]
        for count in [0, 1, items.count] {
            let whole = JSONValue.object([
                .init("tool", .object([.init("name", "w")])), .init("events", .array(Array(items.prefix(count)))),
                .init("curve", "BN254CX"),
            ])
            let header = JSONValue.object([
                .init("tool", .object([.init("name", "w")])), .init("events", .array([])), .init("curve", "BN254CX"),
            ])
            var pieces: [[UInt8]] = []
            var made: [Int] = []
            JSONWriter.writeCanonical(
                header, streaming: "events", count: count,
                element: {
                    made.append($0)
                    return items[$0]
                }, chunk: chunk
            ) { pieces.append($0) }
            #expect(pieces.joined().elementsEqual(JSONWriter.canonicalBytes(whole)), "count \(count), chunk \(chunk)")
            #expect(made == Array(0..<count))
            #expect(pieces.count <= 1 || pieces.dropLast().allSatisfy { $0.count >= chunk })
        }
    }

    /// A value that is not an object, or has no such member, is written as it is.
    @Test func streamingWithoutTheMemberWritesTheValue() {
        for value: JSONValue in ["x", .object([]), .object([.init("events", "not an array")])] {
            var bytes: [UInt8] = []
            JSONWriter.writeCanonical(value, streaming: "events", count: 3, element: { _ in .null }) {
                bytes += $0
            }
            #expect(bytes == JSONWriter.canonicalBytes(value))
        }
    }
}
