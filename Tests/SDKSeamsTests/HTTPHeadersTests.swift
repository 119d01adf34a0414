import SDKSeams
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndOrderIsKept() {
        var headers: HTTPHeaders = ["X-B": "1", "x-a": "2"]
        headers.append(name: "X-B", value: "3")
        #expect(headers["x-b"] == "1")
        #expect(headers.values(for: "X-b") == ["1", "3"])
        #expect(headers.fields.map(\.name) == ["X-B", "x-a", "X-B"])
    }

    /// Names fold ASCII letters only (RFC 9110 §5.1): no other character matches, though Unicode
    /// lowercasing would fold U+212A KELVIN SIGN to "k" and "É" to "é".
    @Test func onlyASCIILettersFold() {
        let headers: HTTPHeaders = ["Key": "1", "Caf\u{E9}": "2", "A[": "3"]
        #expect(headers["KEY"] == "1" && headers["kEy"] == "1")
        #expect(headers["\u{212A}ey"] == nil)
        #expect(headers["caf\u{E9}"] == "2" && headers["CAF\u{C9}"] == nil)
        #expect(headers["a["] == "3" && headers["a{"] == nil, "[ and { differ by 0x20 but are not letters")
        #expect(headers["Ke"] == nil && headers["Keys"] == nil)
    }

    @Test func addIfAbsentDoesNotOverwrite() {
        var headers: HTTPHeaders = ["content-type": "text/custom"]
        headers.addIfAbsent(name: "Content-Type", value: "application/json; charset=UTF-8")
        headers.addIfAbsent(name: "Accept", value: "text/plain")
        #expect(
            headers.fields == [
                .init(name: "content-type", value: "text/custom"), .init(name: "Accept", value: "text/plain"),
            ])
    }

    @Test func setReplacesAllAtFirstPosition() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers.set(name: "A", value: "9")
        #expect(headers.fields == [.init(name: "A", value: "9"), .init(name: "B", value: "2")])
        headers.remove(name: "b")
        #expect(headers.count == 1)
    }
}

@Suite struct HTTPRequestTests {
    @Test func queryParametersArePercentEncoded() {
        let request = HTTPRequest(method: .get, url: "https://h/p", query: [("a b", "x/y&z"), ("k", "é")])
        #expect(request.url == "https://h/p?a%20b=x%2Fy%26z&k=%C3%A9")
        let more = HTTPRequest(method: .get, url: "https://h/p?x=1", query: [("y", "2")])
        #expect(more.url == "https://h/p?x=1&y=2")
    }

    @Test func systemSourcesProduceValues() {
        #expect(SystemRandomSource().randomBytes(count: 13).count == 13)
        #expect(SystemClock().nowMilliseconds() > 1_600_000_000_000)
    }
}
