import FlowRecording
import Testing

/// `--route PREFIX=ORIGIN`: a path prefix of one or more segments and an origin.
@Suite struct RouteArgumentTests {
    @Test func aRouteIsAPrefixAndAnOrigin() throws {
        let route = try #require(RecordingProxy.Route(argument: "/dta2=http://127.0.0.1:8001/"))
        #expect(route.prefix == "/dta2")
        #expect(route.upstream == "http://127.0.0.1:8001")
        #expect(RecordingProxy.Route(argument: "/a/b=https://h")?.prefix == "/a/b")
    }

    @Test(arguments: [
        "", "/dta2", "=http://h", "dta2=http://h", "/=http://h", "/dta2/=http://h", "/a//b=http://h", "/a?b=http://h",
        "/a#b=http://h", "/a b=http://h", "/dta2=h:8001", "/dta2=http://h/path", "/dta2=ftp://h",
    ])
    func malformedRoutesAreRefused(text: String) {
        #expect(RecordingProxy.Route(argument: text) == nil, "\(text)")
    }
}
