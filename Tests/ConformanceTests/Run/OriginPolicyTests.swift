import Conformance
import Testing

@Suite struct OriginPolicyTests {
    @Test func originsCompareBySchemeHostAndPort() {
        let policy = OriginPolicy(backendURL: "http://127.0.0.1:8005/base", allowed: ["https://DTA.example"])
        #expect(policy.allows("http://127.0.0.1:8005/rps/user"))
        #expect(policy.allows("ws://127.0.0.1:8005/ws"))
        #expect(policy.allows("https://dta.example:443/clientSecret?x"))
        #expect(!policy.allows("http://127.0.0.1:8006/rps/user"))
        #expect(!policy.allows("https://127.0.0.1:8005/rps/user"))
        #expect(!policy.allows("http://dta.example/"))
        #expect(!policy.allows("http://127.0.0.1:8005@127.0.0.2:8005/"))
        #expect(!policy.allows("ftp://127.0.0.1:8005/"))
        #expect(!policy.allows("/relative"))
        #expect(OriginPolicy(backendURL: "http://Host").allows("http://host:80/x"))
    }
}
