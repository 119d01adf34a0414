import CommonFormats
import Testing

/// The absolute URLs the SDK reads: scheme and host lowercased, user info, port and IPv6 brackets
/// taken off the host, the rest as written.
@Suite struct URLPartsTests {
    @Test(
        arguments: [
            ("HTTP://User@Example.COM:8005/a?b#c", "http", "User@Example.COM:8005", "example.com", 8005, "/a?b#c"),
            ("https://[::1]:443/x", "https", "[::1]:443", "::1", 443, "/x"),
            ("https://[FE80::1]", "https", "[FE80::1]", "fe80::1", nil, ""),
            ("http://host:/p", "http", "host:", "host", nil, "/p"),
            ("http://host?q", "http", "host", "host", nil, "?q"),
            ("svn+ssh://h", "svn+ssh", "h", "h", nil, ""),
        ] as [(String, String, String, String, Int?, String)])
    func valid(url: String, scheme: String, authority: String, host: String, port: Int?, rest: String) throws {
        let parts = try #require(URLParts(url))
        #expect(parts.scheme == scheme)
        #expect(parts.authority == authority)
        #expect(parts.host == host)
        #expect(parts.port == port)
        #expect(parts.rest == rest)
    }

    @Test(arguments: [
        "", "host/path", "/a://b", "1http://h", "ht tp://h", "http://h:port/", "http://[::1/", "http://[::1]x/", "://h",
    ])
    func invalid(url: String) {
        #expect(URLParts(url) == nil)
    }
}
