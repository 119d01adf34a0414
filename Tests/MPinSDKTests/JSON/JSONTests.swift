@testable import MPinSDK
import Testing

@Suite struct JSONTests {
    @Test func milagroRequestFormat() {
        let body = JSONValue.fields(["userId": .string("x"), "mobile": .int(1)])
        #expect(body.formatted() == "{\n\t\"userId\" : \"x\",\n\t\"mobile\" : 1\n}")
        let nested = JSONValue.fields(["mpinResponse": .fields(["authOTT": .string("ab")]), "authzRequest": .bool(false)])
        #expect(nested.formatted() == "{\n\t\"mpinResponse\" : {\n\t\t\"authOTT\" : \"ab\"\n\t},\n\t\"authzRequest\" : false\n}")
        #expect(JSONValue.object([]).formatted() == "{}")
        #expect(JSONValue.fields(["a": .array([])]).formatted() == "{\n\t\"a\" : []\n}")
    }

    @Test func parsingKeepsOrderAndLiterals() throws {
        let text = "{\"b\": 1.50, \"a\": [true, null, -3e2], \"c\": {\"z\": \"\\u00e9\\n\\\"\", \"y\": 17085}}"
        let value = try JSONParser.parse(text)
        #expect(value.members?.map(\.key) == ["b", "a", "c"])
        #expect(value["b"] == .number("1.50"))
        #expect(value["c"]?["z"]?.stringValue == "é\n\"")
        #expect(value["c"]?["y"]?.intValue == 17085)
        #expect(value["a"] == .array([.bool(true), .null, .number("-3e2")]))
        #expect(value.compact() == "{\"b\":1.50,\"a\":[true,null,-3e2],\"c\":{\"z\":\"é\\n\\\"\",\"y\":17085}}")
        #expect(try JSONParser.parse(value.formatted()) == value)
    }

    @Test func surrogatePairsAndEscapes() throws {
        #expect(try JSONParser.parse("\"\\ud83d\\ude00\\/\"") == .string("😀/"))
        #expect(JSONValue.string("a\u{01}b").compact() == "\"a\\u0001b\"")
    }

    @Test(arguments: ["", "{", "{\"a\" 1}", "[1,]", "01", "\"\\x\"", "tru", "{\"a\":1} x", "\"\\ud800\"", "\"a\nb\"", "-", "1."])
    func rejectsInvalid(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    @Test func hex() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
