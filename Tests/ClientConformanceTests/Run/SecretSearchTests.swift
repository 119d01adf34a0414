import ReferenceBackend
import SDKSeams
import Testing

@testable import ClientConformance

/// Where a secret is in a request, and where a look-alike is not.
@Suite struct SecretSearchTests {
    static func exchange(url: String, headers: HTTPHeaders = [:], body: String) -> ObservedExchange {
        ObservedExchange(
            request: FaultRequest(
                method: "POST", url: url, target: "", segments: [], query: [:], headers: headers,
                body: Array(body.utf8), endpoint: nil),
            answer: FaultAnswer(status: 200))
    }

    @Test func findsThePINAsAValueOrAWord() {
        let url = "http://127.0.0.1:1/rps/pass1"
        #expect(SecretSearch.pin("4711", in: [Self.exchange(url: url, body: #"{"a":{"pin":"4711"}}"#)]) != nil)
        #expect(
            SecretSearch.pin("4711", in: [Self.exchange(url: url, body: #"{"pin":4711}"#)])?.contains("$.pin") == true)
        #expect(
            SecretSearch.pin("4711", in: [Self.exchange(url: url + "?p=4711", body: "")])?.contains("query") == true)
        #expect(SecretSearch.pin("4711", in: [Self.exchange(url: url, headers: ["X-P": "4711"], body: "")]) != nil)
        #expect(SecretSearch.pin("4711", in: [Self.exchange(url: url, body: "pin=4711&x=1")]) != nil)
    }

    @Test func doesNotFindThePINInsideHex() {
        let body = #"{"U":"04ab4711cd","date":147110,"mpin_id":"x4711"}"#
        #expect(SecretSearch.pin("4711", in: [Self.exchange(url: "http://127.0.0.1:1/rps/pass1", body: body)]) == nil)
    }

    @Test func findsAPointOrItsXCoordinate() {
        let point = [UInt8(4)] + [UInt8](repeating: 0xAB, count: 32) + [UInt8](repeating: 0xCD, count: 32)
        let whole = String(repeating: "ab", count: 32) + String(repeating: "cd", count: 32)
        let x = String(repeating: "AB", count: 32)
        let url = "http://127.0.0.1:1/rps/pass1"
        #expect(
            SecretSearch.point(point, in: [Self.exchange(url: url, body: "04" + whole)])?.contains("encoding") == true)
        #expect(SecretSearch.point(point, in: [Self.exchange(url: url, body: x)])?.contains("x coordinate") == true)
        #expect(SecretSearch.point(point, in: [Self.exchange(url: url, body: "04")]) == nil)
    }
}
