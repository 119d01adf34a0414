import DeviceSecurity
import SDKSeams
import Testing

/// A borrow time in a service answer is taken only when it is a whole number of seconds within a
/// hundred years: before, 99999999999999999999999 became 200376420520689663 and 2.5 became 2.
@Suite struct BorrowTimeAnswerTests {
    struct Canned: HTTPTransport {
        let body: String
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
    }

    func borrowTime(_ literal: String) async -> Int64? {
        let body = #"{"result":1,"resCode":0,"resMsg":"ok","deviceHash":"h","deviceBorrowTime":"# + literal + "}"
        let device = DeviceSecurity(
            serviceURL: "http://service.test/devicesecurity", transport: Canned(body: body), clock: ManualClock())
        #expect(await device.registerDevice("session") == .success)
        return await device.deviceBorrowTime
    }

    @Test func onlyWholeSecondsWithinAHundredYearsAreTaken() async {
        #expect(await borrowTime("3600") == 3600)
        #expect(await borrowTime("3153600000") == 3_153_600_000)
        for literal in [
            "99999999999999999999999", "18446744073709551615", "1e30", "3153600001", "2.5", "0", "-60", "\"60\"",
        ] {
            #expect(await borrowTime(literal) == nil, "\(literal)")
        }
    }
}
