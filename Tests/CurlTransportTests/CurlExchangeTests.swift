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

    /// A refused connection's message names no measured time, so a recording of it is the same on
    /// a busy machine; a message without one is kept as it is.
    @Test func refusedConnectionsNameNoMeasuredTime() {
        #expect(
            CurlExchange.withoutConnectTime(
                "Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server")
                == "Failed to connect to 127.0.0.1 port 1: Couldn't connect to server")
        #expect(
            CurlExchange.withoutConnectTime("Failed to connect to ::1 port 9 after 1203 ms: Connection refused")
                == "Failed to connect to ::1 port 9: Connection refused")
        #expect(CurlExchange.withoutConnectTime("Couldn't connect to server") == "Couldn't connect to server")
        #expect(CurlExchange.withoutConnectTime("retry after ms soon") == "retry after ms soon")
    }
}
