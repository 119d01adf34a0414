import OrderedJSON
import Testing

@Suite struct JSONValueTests {
    @Test func semanticEqualityIgnoresOrderAndNumberSpelling() throws {
        let a = try JSONParser.parse(#"{"x": 1, "y": [1, 2]}"#)
        let b = try JSONParser.parse(#"{"y": [1.0, 2], "x": 1}"#)
        #expect(a.semanticallyEquals(b))
        #expect(a != b)
    }

    @Test func numbers() {
        #expect(JSONValue.integer(UInt32(17085)) == .number("17085"))
        #expect(JSONValue.double(2) == .number("2"))
        #expect(JSONValue.double(.infinity) == .number("0"))
        #expect(JSONValue.number("17085").intValue == 17085)
        #expect(JSONValue.number("1.5").intValue == nil)
        #expect(JSONValue.number("1e3").intValue == nil)
        #expect(JSONValue.number("1e3").doubleValue == 1000)
    }

    @Test func removesFieldsAnywhereOrByPath() throws {
        let value = try JSONParser.parse(#"{"a": 1, "m": {"a": 2, "b": 3}, "l": [{"b": 4}]}"#)
        #expect(try value.removing(fields: ["a"]) == JSONParser.parse(#"{"m": {"b": 3}, "l": [{"b": 4}]}"#))
        #expect(try value.removing(fields: ["m.b"]) == JSONParser.parse(#"{"a": 1, "m": {"a": 2}, "l": [{"b": 4}]}"#))
    }
}
