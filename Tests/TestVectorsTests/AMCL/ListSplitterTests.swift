import Testing

@testable import TestVectors

/// The entries of a vector list found without parsing it (what lets `vectors verify` read a list of a
/// million vectors one entry at a time), and the texts it leaves to the whole parse.
@Suite struct ListSplitterTests {
    private func texts(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return ListSplitter.entries(of: bytes).map { $0.map { String(decoding: bytes[$0.range], as: UTF8.self) } }
    }

    @Test func entriesAndTheirLines() throws {
        let text = "\n[\n  {\"A\": \"x,]}\\\"\"},\n  {\"B\": 1,\n   \"C\": [1, {\"d\": 2}]}\n]\n"
        #expect(texts(text) == [#"{"A": "x,]}\""}"#, "{\"B\": 1,\n   \"C\": [1, {\"d\": 2}]}"])
        #expect(ListSplitter.entries(of: Array(text.utf8))?.map(\.line) == [3, 4])
        #expect(texts("[]") == [])
        #expect(texts(" [ 5 , \"s\" ] ") == ["5", "\"s\""])
    }

    @Test(arguments: [
        "", "{}", "[", "[1,]", "[,1]", "[1] x", "[1}", "[\"open]", "[{\"a\": \"line\nbreak\"}]", "\u{FEFF}[1]", "[{]",
    ])
    func whatItDoesNotExpectIsLeftToTheWholeParse(text: String) {
        #expect(ListSplitter.entries(of: Array(text.utf8)) == nil, "\(text.debugDescription)")
    }
}
