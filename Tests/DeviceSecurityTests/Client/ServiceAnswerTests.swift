import DeviceSecurity
import SDKSeams
import Testing

/// How answers of the service become results.
@Suite struct ServiceAnswerTests {
    struct Canned: HTTPTransport {
        let status: Int
        let body: String
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
    }

    func result(_ status: Int, _ body: String) async -> (ServiceResult, Int, String) {
        let device = DeviceSecurity(
            serviceURL: "http://service.test/devicesecurity", transport: Canned(status: status, body: body),
            clock: ManualClock())
        let result = await device.registerDevice("session")
        return (result, await device.serviceResCode, await device.serviceResMsg)
    }

    @Test func flagsComeFromTheResultMember() async {
        #expect(await result(200, #"{"result":1,"resCode":0,"resMsg":"ok","deviceHash":"h"}"#).0 == .success)
        #expect(
            await result(200, #"{"result":66,"resCode":1001,"resMsg":"invalid"}"#) == (
                [.invalidMVSessionID, .serviceSuccess], 1001, "invalid"
            ))
    }

    @Test func anErrorStatusIsAServiceFault() async {
        #expect(
            await result(500, #"{"result":32,"resCode":5000,"resMsg":"injected"}"#) == (.serviceFault, 5000, "injected")
        )
        #expect(await result(400, #"{"result":65,"resCode":0,"resMsg":"?"}"#).0 == .serviceFault)
    }

    @Test func answersWithoutAResultAreServiceFaults() async {
        for body in ["", "[]", #"{"result":"65"}"#, #"{"result":-1}"#, #"{"result":256}"#, "null", "{"] {
            let (flags, code, _) = await result(200, body)
            #expect(flags == .serviceFault, "\(body)")
            #expect(code == DeviceResultCode.unreadableAnswer)
        }
    }

    @Test func aSuccessWithoutADeviceHashRegistersNothing() async {
        let device = DeviceSecurity(
            serviceURL: "http://service.test/devicesecurity",
            transport: Canned(status: 200, body: #"{"result":65,"resCode":0,"resMsg":"ok"}"#), clock: ManualClock())
        #expect(await device.registerDevice("session") == [.success, .serviceSuccess])
        #expect(await device.deviceHash == nil)
    }
}
