import OrderedJSON
import Testing

/// `parse(_:streaming:element:)`: the top-level member's array elements are handed over one by one
/// and the array comes back empty; everything else, errors included, is what `parse` gives.
@Suite struct JSONParserStreamingTests {
    private func streamed(_ text: String) throws(JSONSyntaxError) -> (value: JSONValue, elements: [JSONValue]) {
        var elements: [JSONValue] = []
        let value = try JSONParser.parse(Array(text.utf8), streaming: "events") { index, element in
            #expect(index == elements.count)
            elements.append(element)
        }
        return (value, elements)
    }

    @Test func handsOverTheElementsAndReturnsTheRestAsParsed() throws {
        let text = #"{"b": 1, "events": [{"x": [1, 2]}, "s", null, {"events": [3]}], "a": {"events": [4]}}"#
        let (value, elements) = try streamed(text)
        let whole = try JSONParser.parse(text)
        #expect(elements == whole["events"]?.arrayValue)
        var expected = whole
        if case .object(var members) = expected {
            members[1].value = .array([])
            expected = .object(members)
        }
        #expect(value == expected)
        // Only the top level's member is streamed: nested "events" stay where they are.
        #expect(value["a"]?["events"] == .array([4]))
    }

    @Test func aMemberThatIsNotAnArrayOrAValueThatIsNotAnObjectIsKept() throws {
        for text in [#"{"events": {"a": 1}}"#, #"{"events": "x"}"#, #"[{"events": [1]}]"#, #"{"other": [1]}"#] {
            let (value, elements) = try streamed(text)
            #expect(elements.isEmpty, "\(text)")
            #expect(value == (try JSONParser.parse(text)), "\(text)")
        }
    }

    @Test func errorsAreThoseOfParse() {
        for text in [
            #"{"events": [1, 2,]}"#, #"{"events": [1], "events": [2]}"#, #"{"events": [{"a": 1, "a": 2}]}"#,
            #"{"events": [1] "#, #"{"events": [1]} x"#,
        ] {
            var mine: JSONSyntaxError?
            var theirs: JSONSyntaxError?
            do { _ = try streamed(text) } catch { mine = error }
            do { _ = try JSONParser.parse(text) } catch { theirs = error }
            #expect(mine != nil && mine?.message == theirs?.message, "\(text)")
            #expect(mine?.line == theirs?.line && mine?.column == theirs?.column, "\(text)")
        }
    }
}
