import CommonFormats
import Testing

/// The origin form of the command line (`proxy --upstream`, `conform --allow-origin`): http or
/// https with a host and nothing after it but one `/`.
@Suite struct URLTextOriginTests {
    @Test(arguments: [
        ("http://127.0.0.1:8005", "http://127.0.0.1:8005"),
        ("http://127.0.0.1:8005/", "http://127.0.0.1:8005"),
        ("HTTPS://example.test", "HTTPS://example.test"),
        ("http://[::1]:8005", "http://[::1]:8005"),
    ])
    func originsAreTaken(text: String, origin: String) {
        #expect(URLText.origin(text) == origin)
    }

    @Test(arguments: [
        "", "127.0.0.1:8005", "ftp://127.0.0.1", "http://", "http:///", "http://127.0.0.1:8005/rps",
        "http://127.0.0.1:8005?x=1", "http://127.0.0.1:8005#f", "http://user@127.0.0.1", "http://a b", "http://h//",
    ])
    func othersAreRefused(text: String) {
        #expect(URLText.origin(text) == nil, "\(text)")
    }
}
