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
}
