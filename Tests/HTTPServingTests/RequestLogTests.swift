import Testing

@testable import HTTPServing

/// The line `RequestLog` writes for each request (the servers' logs are read end to end in
/// ReferenceBackendTests' `RequestLogTests`).
@Suite struct RequestLogTests {
    @Test func lineFormat() {
        typealias Log = RequestLog
        #expect(
            Log.line(method: "GET", path: "/rps/pass1", status: 200, duration: .microseconds(1_234), bytes: 56)
                == "GET /rps/pass1 200 1.234 ms 56 bytes")
        #expect(
            Log.line(method: "PUT", path: "", status: 500, duration: .nanoseconds(999), bytes: nil)
                == "PUT / 500 0.000 ms - bytes")
        #expect(
            Log.line(method: "POST", path: "/x", status: 413, duration: .seconds(2), bytes: 0)
                == "POST /x 413 2000.000 ms 0 bytes")
    }
}
