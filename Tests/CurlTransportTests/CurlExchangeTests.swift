import Testing

@testable import CurlTransport

/// Time limits handed to libcurl are whole milliseconds within its range, whatever the caller gave.
@Suite struct CurlExchangeTests {
    @Test func limitsAreClampedNotTrapped() {
        #expect(CurlExchange.milliseconds(2.5) == 2500)
        #expect(CurlExchange.milliseconds(0.0001) == 1)
        #expect(CurlExchange.milliseconds(0) == 1)
        #expect(CurlExchange.milliseconds(-5) == 1)
        #expect(CurlExchange.milliseconds(1e30) == Int(Int32.max))
        #expect(CurlExchange.milliseconds(.infinity) == Int(Int32.max))
        #expect(CurlExchange.milliseconds(-.infinity) == 1)
        #expect(CurlExchange.milliseconds(.nan) == 1)
    }
}
