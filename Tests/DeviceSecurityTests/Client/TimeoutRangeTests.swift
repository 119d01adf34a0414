import DeviceSecurity
import SDKSeams
import Testing

/// A request time limit outside `DeviceSecurity.timeoutRange` sends nothing: before, a limit of
/// 1e30 s reached the transport, whose conversion to milliseconds trapped.
@Suite struct TimeoutRangeTests {
    /// Records whether anything was sent.
    final class Recording: HTTPTransport, @unchecked Sendable {
        var sent: [HTTPRequest] = []
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            sent.append(request)
            return HTTPResponse(
                status: 200, body: Array(#"{"result":1,"resCode":0,"resMsg":"ok","deviceHash":"h"}"#.utf8))
        }
    }

    @Test func aTimeoutOutsideTheRangeIsANetworkErrorNamingTheRange() async {
        for timeout in [1e30, -1, 0, .nan, .infinity, 3600.5] {
            let transport = Recording()
            let device = DeviceSecurity(
                serviceURL: "http://service.test/devicesecurity", transport: transport, clock: ManualClock(),
                timeout: timeout)
            #expect(await device.registerDevice("session") == .networkError, "\(timeout)")
            #expect(transport.sent.isEmpty)
            let error = await device.networkError
            #expect(error?.kind == .invalidRequest)
            #expect(
                error?.message == "the request time limit \(timeout) s is outside 0.001 to 3600 s; nothing was sent")
        }
        for timeout in [0.001, 2, 3600] {
            let transport = Recording()
            let device = DeviceSecurity(
                serviceURL: "http://service.test/devicesecurity", transport: transport, clock: ManualClock(),
                timeout: timeout)
            #expect(await device.registerDevice("session") == .success)
            #expect(transport.sent.first?.timeout == timeout)
        }
    }
}
