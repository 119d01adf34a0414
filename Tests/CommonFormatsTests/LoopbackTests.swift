import Testing

@testable import CommonFormats

@Suite struct LoopbackTests {
    @Test(arguments: [
        "localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "[::1]", "0:0:0:0:0:0:0:1",
        "0000:0000:0000:0000:0000:0000:0000:0001", "::ffff:127.0.0.1", "[::FFFF:127.9.9.9]", "::ffff:7f00:1",
    ])
    func loopbackHosts(host: String) {
        #expect(Loopback.isLoopback(host: host))
    }

    @Test(arguments: [
        "127.evil.example", "127.0.0.1.evil.example", "127.0.0", "127.0.0.256", "127.0.0.1.", "128.0.0.1", "10.0.0.1",
        "0.0.0.0", "::", "::2", "::ffff:10.0.0.1", "localhost.evil.example", "evil-localhost", "1::1", "", "127.0.0.-1",
        "127.0x0.0.1", "fe80::1%lo", "[::1", "1:2:3:4:5:6:7:8:9",
    ])
    func notLoopbackHosts(host: String) {
        #expect(!Loopback.isLoopback(host: host))
    }

    @Test func urls() {
        #expect(Loopback.isLoopback(url: "http://127.0.0.1:8005/rps/setup"))
        #expect(Loopback.isLoopback(url: "https://[::1]:443/"))
        #expect(Loopback.isLoopback(url: "http://user@localhost/"))
        #expect(!Loopback.isLoopback(url: "http://127.evil.example:8005/"))
        #expect(!Loopback.isLoopback(url: "http://127.0.0.1.nip.example/"))
        #expect(!Loopback.isLoopback(url: "not a url"))
    }

    @Test func addresses() {
        #expect(Loopback.isLoopback(ipv4: 0x7F00_0001))
        #expect(!Loopback.isLoopback(ipv4: 0x0A00_0001))
        #expect(Loopback.isLoopback(ipv6: Array(repeating: 0, count: 15) + [1]))
        #expect(Loopback.isLoopback(ipv6: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]))
        #expect(!Loopback.isLoopback(ipv6: Array(repeating: 0, count: 16)))
        #expect(!Loopback.isLoopback(ipv6: [1]))
    }
}
