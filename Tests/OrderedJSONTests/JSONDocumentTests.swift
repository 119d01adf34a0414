import OrderedJSON
import Testing

@Suite struct JSONDocumentTests {
    static let text = """
        {
          "name": "x",
          "testGroups": [
            {
              "tests": [
                {"tcId": 1, "result": "valid"},
                {
                  "tcId": 2,
                  "result":
                    "invalid"
                }
              ]
            }
          ]
        }

        """

    @Test func linesByPath() throws {
        let document = try JSONParser.parseDocument(Self.text)
        #expect(document.line(of: .root) == 1)
        #expect(document.line(of: ["name"]) == 2)
        #expect(document.line(of: ["testGroups"]) == 3)
        #expect(document.line(of: ["testGroups", 0]) == 4)
        #expect(document.line(of: ["testGroups", 0, "tests", 0]) == 6)
        #expect(document.line(of: ["testGroups", 0, "tests", 0, "result"]) == 6)
        #expect(
            document.line(of: JSONPath.root.member("testGroups").index(0).member("tests").index(1).member("tcId")) == 8)
        // A member is placed at its name, even when the value starts on a later line.
        #expect(document.line(of: ["testGroups", 0, "tests", 1, "result"]) == 9)
        #expect(document.line(of: ["testGroups", 0, "tests", 2]) == nil)
        #expect(document.line(of: ["nothing"]) == nil)
    }

    @Test func columnsAndOffsetsInBytes() throws {
        let text = "[\"é\", {\"a\": 1}]"
        let document = try JSONParser.parseDocument(text)
        #expect(document.position(of: .root) == JSONPosition(line: 1, column: 1, offset: 0))
        #expect(document.position(of: [0]) == JSONPosition(line: 1, column: 2, offset: 1))
        // "é" is two bytes, so the object starts at byte 7.
        #expect(document.position(of: [1]) == JSONPosition(line: 1, column: 8, offset: 7))
        #expect(document.position(of: [1, "a"]) == JSONPosition(line: 1, column: 9, offset: 8))
        let bom = try JSONParser.parseDocument([0xEF, 0xBB, 0xBF] + Array("\n {}".utf8))
        #expect(bom.position(of: .root) == JSONPosition(line: 2, column: 2, offset: 5))
    }

    @Test func sameValueAndErrorsAsParse() throws {
        let document = try JSONParser.parseDocument(Self.text)
        #expect(document.value == (try JSONParser.parse(Self.text)))
        for broken in ["{\n  \"a\": 1,\n  \"b\" 2\n}", "[1,]", "{\"a\":1} x", "", "[{\"a\": 1,\n \"a\": 1}]"] {
            var fromParse: JSONSyntaxError?, fromDocument: JSONSyntaxError?
            do { _ = try JSONParser.parse(broken) } catch { fromParse = error }
            do { _ = try JSONParser.parseDocument(broken) } catch { fromDocument = error }
            #expect(fromParse != nil && fromParse == fromDocument)
        }
    }

    @Test func everyPathLeadsToAValueAndEveryValueHasAPath() throws {
        let document = try JSONParser.parseDocument(Self.text)
        for path in document.positions.keys { #expect(document.value.value(at: path) != nil, "\(path)") }
        func count(_ value: JSONValue) -> Int {
            switch value {
            case .array(let items): 1 + items.map(count).reduce(0, +)
            case .object(let members): 1 + members.map { count($0.value) }.reduce(0, +)
            default: 1
            }
        }
        #expect(document.positions.count == count(document.value))
    }

    @Test func aRepeatedNameIsPlacedAtTheLastMember() throws {
        let document = try JSONParser.parseDocument(
            "{\"a\": {\"x\": 1},\n\"b\": 2,\n\"a\": 3}", duplicateMembers: .keep)
        #expect(document.value["a"] == .number("3"))
        #expect(document.line(of: ["a"]) == 3)
        #expect(document.line(of: ["a", "x"]) == nil)
        #expect(document.positions.count == 3)

        let nested = try JSONParser.parseDocument(
            "{\"a\": {\"x\": [1, {\"y\": 2}]}, \"a\": 1,\n \"a\": {\"z\": [true]}}",
            duplicateMembers: .keep)
        #expect(Set(nested.positions.keys) == [.root, ["a"], ["a", "z"], ["a", "z", 0]])
        #expect(nested.position(of: ["a"]) == JSONPosition(line: 2, column: 2, offset: 37))
    }

    @Test func pathText() {
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath(["testGroups", 0, "tests", 3, "result"]).description == "$.testGroups[0].tests[3].result")
        #expect(JSONPath(["a b", "_x1", "1x", "", "é"]).description == #"$["a b"]._x1["1x"][""]["é"]"#)
        #expect(JSONPath.root.member("a").index(2) == ["a", 2])
    }

    @Test func valueAtPath() throws {
        let value = try JSONParser.parse(#"{"a": [1, {"b": null}], "a2": true}"#)
        #expect(value.value(at: .root) == value)
        #expect(value.value(at: ["a", 1, "b"]) == .null)
        #expect(value.value(at: ["a", 2]) == nil)
        #expect(value.value(at: ["a", "b"]) == nil)
        #expect(value.value(at: [0]) == nil)
    }
}
