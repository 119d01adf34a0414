import CommonFormats
import Testing

/// URL text split without decoding: absolute URLs and origin-form request targets alike, and
/// every rebuilt URL byte for byte the one given.
@Suite struct URLTextTests {
    @Test(
        arguments: [
            // (text, origin, path, query, fragment)
            ("http://127.0.0.1:8005/rps/user?x=1#f", "http://127.0.0.1:8005", "/rps/user", "x=1", "f"),
            ("http://127.0.0.1:8005", "http://127.0.0.1:8005", "", nil, nil),
            ("http://host?q=1", "http://host", "", "q=1", nil),
            ("http://host#a?b", "http://host", "", nil, "a?b"),
            ("/rps/signature/ab?regOTT=1&x=%20", "", "/rps/signature/ab", "regOTT=1&x=%20", nil),
            ("/a?", "", "/a", "", nil),
            ("", "", "", nil, nil),
            ("*", "", "*", nil, nil),
            // A `://` inside a query is no scheme: the text before it holds a `/` or `?`.
            ("/authorize?redirect_uri=http://rp/cb", "", "/authorize", "redirect_uri=http://rp/cb", nil),
            ("http://h/a?u=http://x/y", "http://h", "/a", "u=http://x/y", nil),
            ("://host/p", "", "://host/p", nil, nil),
            ("/é/ü?ä=ö", "", "/é/ü", "ä=ö", nil),
        ] as [(String, String, String, String?, String?)])
    func parts(text: String, origin: String, path: String, query: String?, fragment: String?) {
        let parts = URLText.parts(text)
        #expect(String(parts.origin) == origin)
        #expect(String(parts.path) == path)
        #expect(parts.query.map(String.init) == query)
        #expect(parts.fragment.map(String.init) == fragment)
        let rebuilt =
            parts.origin + parts.path + (parts.query.map { "?" + $0 } ?? "") + (parts.fragment.map { "#" + $0 } ?? "")
        #expect(rebuilt == text)
    }

    @Test func schemeAndAuthority() {
        let parts = URLText.parts("https://user@Host:443/x")
        #expect(parts.scheme == "https")
        #expect(parts.authority == "user@Host:443")
        #expect(URLText.parts("/x").scheme == nil)
        #expect(URLText.parts("/x").authority == nil)
        #expect(URLText.parts("http:///x").authority == "")
    }

    @Test func originAndPath() {
        #expect(URLText.origin(of: "http://h:1/a/b?c") == "http://h:1")
        #expect(URLText.origin(of: "/a/b") == "/a/b")
        #expect(URLText.path("http://h:1/a/b?c#d") == "/a/b")
        #expect(URLText.path("http://h:1") == "/")
        #expect(URLText.path("http://h?r=/x") == "/")
        #expect(URLText.path("/a#frag") == "/a")
        #expect(URLText.path("") == "/")
    }

    @Test func queryItems() {
        #expect(
            URLText.queryItems("http://h/p?a=1&b&&c=x=y#f").map { [$0.0, $0.1] } == [
                ["a", "1"], ["b", ""], ["c", "x=y"],
            ])
        #expect(URLText.queryItems("http://h/p").isEmpty)
        #expect(URLText.queryItems("http://h/p#a?b=1").isEmpty)
    }

    @Test func mapTokens() {
        let mapped = URLText.mapTokens("http://h:1/rps/user/abc?x=1&y&z=#frag") { "<" + $0 + ">" }
        #expect(mapped == "http://h:1/<rps>/<user>/<abc>?x=<1>&y&z=<>#frag")
        #expect(URLText.mapTokens("/a//b/") { $0.uppercased() } == "/A//B/")
    }

    @Test func removingQueryItems() {
        #expect(URLText.removingQueryItems("http://h/p?a=1&t=2&b#f", ["t"]) == "http://h/p?a=1&b#f")
        #expect(URLText.removingQueryItems("http://h/p?t=2#f", ["t"]) == "http://h/p#f")
        #expect(URLText.removingQueryItems("http://h/p?t=2", []) == "http://h/p?t=2")
        #expect(URLText.removingQueryItems("http://h/p", ["t"]) == "http://h/p")
    }
}
