import OrderedJSON
import Testing

@testable import FlowRecording

@Suite struct JSONDiffTests {
    @Test func diffNamesPaths() throws {
        let a = try JSONParser.parse(#"{"mpinResponse": {"authOTT": "aa"}, "list": [1, 2]}"#)
        let b = try JSONParser.parse(#"{"mpinResponse": {"authOTT": "ab"}, "list": [1], "extra": true}"#)
        let paths = JSONDiff.differences(a, b).map(\.path)
        #expect(paths == ["$.mpinResponse.authOTT", "$.list[1]", "$.extra"])
    }

    /// A change inside a long value shows in both of its shortened renderings (issue 37: cut in the
    /// middle, two values that differ there looked the same).
    @Test func aChangeInsideALongValueShowsInBoth() throws {
        let recorded = String(repeating: "ab", count: 100)
        var changed = Array(recorded)
        changed[131] = "Z"
        let (e, a) = TextShortening.aroundDifference(recorded, String(changed), limit: 48)
        #expect(e != a)
        #expect(
            e.hasSuffix("(200 chars, differs from character 132)")
                && a.hasSuffix("(200 chars, differs from character 132)"))
        #expect(a.contains("Z") && !e.contains("Z"))
        #expect(e.count < 100 && e.hasPrefix("…"))
        // The middle cut of before hides it: both look the same.
        #expect(TextShortening.middle(recorded, limit: 48) == TextShortening.middle(String(changed), limit: 48))
        let difference = try #require(
            JSONDiff.differences(
                try JSONParser.parse(#"{"U": "\#(recorded)"}"#), try JSONParser.parse(#"{"U": "\#(String(changed))"}"#)
            ).first)
        #expect(difference.description.contains("differs from character"))
    }
}
