import Hummingbird
import Testing

@testable import ReferenceBackend

/// How a request target becomes the path and query the backend routes on (RFC 9112 §3.2).
@Suite struct CallTests {
    @Test(
        arguments: [
            ("/rps/pass1", "/rps/pass1", nil),
            ("/rps/signature/ab?regOTT=1&x=%20", "/rps/signature/ab", "regOTT=1&x=%20"),
            ("/a?b=1#frag", "/a", "b=1"),
            ("/a?", "/a", ""),
            ("/", "/", nil),
            ("", "/", nil),
            ("http://127.0.0.1:8005/rps/clientSettings?x=1", "/rps/clientSettings", "x=1"),
            ("http://127.0.0.1:8005", "/", nil),
            ("http://host?q=1", "/", "q=1"),
            ("*", "*", nil),
            ("/é/ü?ä=ö", "/é/ü", "ä=ö"),
        ] as [(String, String, String?)])
    func targetsSplitIntoPathAndQuery(target: String, path: String, query: String?) {
        let split = Call.split(target: target)
        #expect(String(split.path) == path)
        #expect(split.query.map(String.init) == query)
    }

    /// Segments are percent-decoded one by one, `+` kept as it is (Tornado's path arguments); in
    /// the query `+` is a space; a query that is not percent-encoded UTF-8 is a 400.
    @Test func readDecodesSegmentsAndQuery() throws {
        let call = try Call.read(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/rps/a%2Fb/c+d/e%20f?x=%41&y=1+2"), body: [])
        #expect(call.segments == ["rps", "a/b", "c+d", "e f"])
        #expect(call.query == ["x": "A", "y": "1 2"])
        let utf8 = try Call.read(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "//é//caf%C3%A9/?ä=ö"), body: [])
        #expect(utf8.segments == ["é", "café"])
        #expect(utf8.query == ["ä": "ö"])
        #expect(throws: APIError.self) {
            try Call.read(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/a?x=%FF"), body: [])
        }
        #expect(throws: APIError.self) {
            try Call.read(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/a%ZZ"), body: [])
        }
    }
}
