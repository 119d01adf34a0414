import OrderedJSON
import Testing

@testable import MPinSDK

@Suite struct JSONTests {
    @Test func milagroRequestFormat() {
        let body = JSONValue.fields(["userId": .string("x"), "mobile": .integer(1)])
        #expect(body.milagroFormatted() == "{\n\t\"userId\" : \"x\",\n\t\"mobile\" : 1\n}")
        let nested = JSONValue.fields([
            "mpinResponse": .fields(["authOTT": .string("ab")]), "authzRequest": .bool(false),
        ])
        #expect(
            nested.milagroFormatted()
                == "{\n\t\"mpinResponse\" : {\n\t\t\"authOTT\" : \"ab\"\n\t},\n\t\"authzRequest\" : false\n}")
        #expect(JSONValue.object([]).milagroFormatted() == "{}")
        #expect(JSONValue.fields(["a": .array([])]).milagroFormatted() == "{\n\t\"a\" : []\n}")
        #expect(
            JSONValue.fields(["b": .array([.null, .number("1.50")]), "a": .bool(true)]).milagroFormatted(
                sortedKeys: true)
                == "{\n\t\"a\" : true,\n\t\"b\" : [\n\t\tnull,\n\t\t1.50\n\t]\n}")
    }

    @Test func parsingKeepsOrderAndLiterals() throws {
        let text = "{\"b\": 1.50, \"a\": [true, null, -3e2], \"c\": {\"z\": \"\\u00e9\\n\\\"\", \"y\": 17085}}"
        let value = try JSONParser.parseRefusingByteOrderMark(text)
        #expect(value.objectMembers?.map(\.name) == ["b", "a", "c"])
        #expect(value[first: "b"] == .number("1.50"))
        #expect(value[first: "c"]?[first: "z"]?.stringValue == "é\n\"")
        #expect(value[first: "c"]?[first: "y"]?.truncatedIntValue == 17085)
        #expect(value[first: "a"] == .array([.bool(true), .null, .number("-3e2")]))
        #expect(value.milagroCompact() == "{\"b\":1.50,\"a\":[true,null,-3e2],\"c\":{\"z\":\"é\\n\\\"\",\"y\":17085}}")
        #expect(try JSONParser.parseRefusingByteOrderMark(value.milagroFormatted()) == value)
    }

    @Test func surrogatePairsAndEscapes() throws {
        #expect(try JSONParser.parseRefusingByteOrderMark("\"\\ud83d\\ude00\\/\"") == .string("😀/"))
        #expect(JSONValue.string("a\u{01}b").milagroCompact() == "\"a\\u0001b\"")
        // The wire bytes keep `/`, U+007F and non-ASCII as they are (JSONWriter escapes U+007F).
        #expect(JSONValue.milagroQuoted("/é\u{7F}\t") == "\"/é\u{7F}\\t\"")
    }

    @Test func theFirstOfARepeatedNameWins() throws {
        var value = try JSONParser.parseRefusingByteOrderMark(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value[first: "a"] == .number("1"))
        value.set("a", .bool(true))
        value.set("c", .null)
        #expect(value.milagroCompact() == #"{"a":true,"b":2,"a":3,"c":null}"#)
    }

    @Test func integersTruncateAsTheCoreDoes() {
        #expect(JSONValue.number("17085").truncatedIntValue == 17085)
        #expect(JSONValue.number("-2.9").truncatedIntValue == -2)
        #expect(JSONValue.number("1.5e3").truncatedIntValue == 1500)
        #expect(JSONValue.number("1e300").truncatedIntValue == nil)
        #expect(JSONValue.string("1").truncatedIntValue == nil)
    }

    @Test(arguments: [
        "", "{", "{\"a\" 1}", "[1,]", "01", "\"\\x\"", "tru", "{\"a\":1} x", "\"\\ud800\"", "\"a\nb\"", "-", "1.",
        "\u{FEFF}{}",
    ])
    func rejectsInvalid(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parseRefusingByteOrderMark(text) }
    }

    @Test func hex() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
