import TestSupport
import Testing

@testable import TestVectors

@Suite("AMCLTextReader")
struct AMCLTextReaderTests {
    @Test("fields keep their 1-based lines, trailing commas are dropped, blank lines split blocks")
    func linesAndCommas() throws {
        let text = """
            MS1 = 0a0b,
            MS2 = 0c0d,

            MS1 = 1111,
            PIN1 = 42,
            """
        let document = try AMCLTextReader.parse(text, file: "t.txt")
        #expect(document.blocks.count == 2)
        #expect(
            document.blocks[0].fields == [
                AMCLBlock.Field(key: "MS1", value: "0a0b", line: 1),
                AMCLBlock.Field(key: "MS2", value: "0c0d", line: 2),
            ])
        #expect(document.blocks[1].line == 4)
        #expect(document.blocks[1]["PIN1"]?.value == "42")
        #expect(document.blocks[1]["PIN1"]?.line == 5)
        #expect(document.blocks.map(\.name) == ["block 1", "block 2"])
    }

    @Test("arithmetic style: no trailing comma, `# test N` and `#testN` name the next block")
    func arithmeticStyle() throws {
        let text = """
            # FP12 ARITHMETICS - CURVE: BN254_CX, Modulo := 0x24
            # second header line

            # test 1
            FP12_1 = [[[1C,0F],[07,1D]]]
            BIGsc1 = 18FE

            #test2
            FP12_1 = [[[2C,0F],[07,1D]]]
            #FPexp = 10057B
            BIGsc1 = 0F48
            """
        let document = try AMCLTextReader.parse(text, file: "fp12.txt")
        #expect(
            document.header.map(\.text) == ["FP12 ARITHMETICS - CURVE: BN254_CX, Modulo := 0x24", "second header line"])
        #expect(document.blocks.map(\.name) == ["test 1", "test 2"])
        #expect(document.blocks[0]["FP12_1"]?.value == "[[[1C,0F],[07,1D]]]")
        #expect(document.blocks[1].fields.map(\.key) == ["FP12_1", "BIGsc1"])
        #expect(document.blocks[1]["BIGsc1"]?.line == 11)
        #expect(document.comments.map(\.line) == [1, 2, 4, 8, 10])
    }

    @Test("a value keeps its own `=` and spaces; CRLF line ends are accepted")
    func valuesAndLineEnds() throws {
        let document = try AMCLTextReader.parse("MPIN_ID = a=b c,\r\nDATE = 0,\r\n", file: "t.txt")
        #expect(document.blocks.count == 1)
        #expect(document.blocks[0]["MPIN_ID"]?.value == "a=b c")
        #expect(document.blocks[0]["DATE"]?.line == 2)
    }

    @Test("blocks that number themselves are named after the field")
    func namingFields() throws {
        let document = try AMCLTextReader.parse("TEST = 3,\nX = 00,\n\nPAIR_TEST = 1,\nA = 01,\n", file: "g.txt")
        #expect(document.blocks.map(\.name) == ["TEST 3", "PAIR_TEST 1"])
    }

    @Test("a line without `=` throws with the file and its line")
    func malformedLine() throws {
        let error = #expect(throws: VectorFileError.self) {
            try AMCLTextReader.read(contentsOf: TestPaths.fixture("malformed_line.txt"))
        }
        #expect(error?.line == 4)
        #expect(error?.file.hasSuffix("malformed_line.txt") == true)
        #expect(error?.description.contains("malformed_line.txt:4:") == true)
    }

    @Test("a key twice in one block (a missing blank line) throws")
    func duplicateKey() throws {
        let error = #expect(throws: VectorFileError.self) {
            try AMCLTextReader.parse("MS1 = 00,\nMS2 = 01,\nMS1 = 02,\n", file: "d.txt")
        }
        #expect(error?.line == 3)
    }

    @Test("a key with spaces or symbols throws")
    func badKey() throws {
        let error = #expect(throws: VectorFileError.self) {
            try AMCLTextReader.parse("\nMS 1 = 00,\n", file: "k.txt")
        }
        #expect(error?.line == 2)
    }

    @Test("a missing file throws naming it")
    func missingFile() throws {
        let error = #expect(throws: VectorFileError.self) {
            try AMCLTextReader.read(contentsOf: "/nonexistent/vectors.txt")
        }
        #expect(error?.file == "/nonexistent/vectors.txt")
        #expect(error?.line == nil)
    }

    @Test("milagro-crypto-c's two-pass text layout reads as its blocks, every field with its line")
    func twoPassLayout() throws {
        let vectors = try AMCLLayoutFile.cTwoPassText.vectors(count: 3)
        let text = AMCLLayoutFile.cTwoPassText.render(vectors)
        let document = try AMCLTextReader.parse(text, file: "mpin_BN254CX.txt")
        #expect(document.blocks.count == 3)
        #expect(document.blocks.map(\.fields.count) == vectors.map(\.fields.count))
        #expect(document.blocks[0].fields.count == 24)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for block in document.blocks {
            for field in block.fields {
                #expect(lines[field.line - 1] == "\(field.key) = \(field.value),")
            }
        }
        #expect(document.blocks[1].line == 3 + vectors[0].fields.count + 1)
    }

    @Test(
        "test-name comments",
        arguments: [
            ("test 3", "test 3"), ("test3", "test 3"), ("Test 12:", "test 12"), ("testing", nil),
            ("test vectors for FP12", nil), ("pairing e(Q,P)", nil),
        ] as [(String, String?)])
    func testNames(comment: String, name: String?) {
        #expect(AMCLTextReader.testName(inComment: comment) == name)
    }
}
