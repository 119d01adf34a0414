import TestSupport
import Testing

@testable import TestVectors

@Suite("AMCLJSONReader")
struct AMCLJSONReaderTests {
    @Test("objects become blocks with key order, lines, and numbers as text")
    func objects() throws {
        let text = """
            [
             {
              "TimeValue": 1437055594,
              "SS1": "082f",
              "DATE": 16632,
              "PIN2": -4
             },
             {"MPIN_ID_HEX": "74\\u0065", "test_no": 7}
            ]
            """
        let blocks = try AMCLJSONReader.parse(text, file: "o.json")
        #expect(blocks.count == 2)
        #expect(
            blocks[0].fields == [
                AMCLBlock.Field(key: "TimeValue", value: "1437055594", line: 3),
                AMCLBlock.Field(key: "SS1", value: "082f", line: 4),
                AMCLBlock.Field(key: "DATE", value: "16632", line: 5),
                AMCLBlock.Field(key: "PIN2", value: "-4", line: 6),
            ])
        #expect(blocks[0].name == "entry 1")
        #expect(blocks[0].line == 3)
        #expect(blocks[1].name == "test_no 7")
        #expect(blocks[1]["MPIN_ID_HEX"]?.value == "74e")
        #expect(blocks[1].line == 8)
    }

    @Test(
        "nested values, booleans and broken syntax throw with the line",
        arguments: [
            ("[\n{\"A\": [1]}\n]", 2),
            ("[\n{\"A\": true}]", 2),
            ("[\n{\"A\": \"1\"\n\"B\": \"2\"}]", 3),
            ("{\"A\": \"1\"}", 1),
            ("[\n{\"A\": \"1\"},\n{\"A\": \"2\", \"A\": \"3\"}]", 3),
            ("[{\"A\": \"1\"}]\n[]", 2),
        ])
    func malformed(text: String, line: Int) {
        let error = #expect(throws: VectorFileError.self) { try AMCLJSONReader.parse(text, file: "bad.json") }
        #expect(error?.line == line)
        #expect(error?.file == "bad.json")
    }

    @Test(
        "errors say what was found and where",
        arguments: [
            ("[\n{\"A\": [1]}\n]", "bad.json:2: field A: values must be strings or numbers, found an array"),
            ("[\n  7]", "bad.json:2: expected a JSON object (one vector), found a number"),
            ("\n{\"A\": \"1\"}", "bad.json:2: expected a JSON array of vectors, found an object"),
            (
                "[\n{\"A\": \"1\"\n\"B\": \"2\"}]",
                "bad.json:3: not JSON at column 1: expected ',' or '}' in object, found '\"'"
            ),
        ])
    func messages(text: String, message: String) {
        let error = #expect(throws: VectorFileError.self) { try AMCLJSONReader.parse(text, file: "bad.json") }
        #expect(error?.description == message)
    }

    @Test("a key repeated in one object is an error at the repeat, naming the key and the first place")
    func repeatedKey() {
        let error = #expect(throws: VectorFileError.self) {
            try AMCLJSONReader.parse("[{\"A\": \"1\",\n \"A\": \"2\"}]", file: "bad.json")
        }
        #expect(error?.line == 2)
        #expect(error?.message.contains("A") == true)
        #expect(error?.message.contains("line 1") == true)
    }

    @Test("an empty object is a block without fields, placed at its brace")
    func emptyObject() throws {
        let blocks = try AMCLJSONReader.parse("[\n{\"A\": \"1\"},\n  {}\n]", file: "e.json")
        #expect(blocks.map(\.line) == [2, 3])
        #expect(blocks.map(\.name) == ["entry 1", "entry 2"])
    }

    @Test("the one-pass layouts read completely, named by test_no or by position")
    func layouts() throws {
        let cVectors = try AMCLLayoutFile.cOnePassJSON.vectors(count: 2)
        let cBlocks = try AMCLJSONReader.parse(AMCLLayoutFile.cOnePassJSON.render(cVectors), file: "c.json")
        #expect(cBlocks.count == 2)
        #expect(cBlocks[0]["TimeValue"]?.value == cVectors[0]["TimeValue"]?.text)
        #expect(cBlocks[0].name == "test_no 0")
        #expect(cBlocks[1].line == 2)
        let jsVectors = try AMCLLayoutFile.jsOnePassJSON.vectors(count: 2)
        let jsBlocks = try AMCLJSONReader.parse(AMCLLayoutFile.jsOnePassJSON.render(jsVectors), file: "js.json")
        #expect(jsBlocks.count == 2)
        #expect(jsBlocks.map(\.fields.count) == jsVectors.map(\.fields.count))
        #expect(jsBlocks[1].name == "entry 2")
    }
}
