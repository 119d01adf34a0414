import DeviceSecurity
import Foundation
import SDKSeams
import Synchronization
import Testing

/// The JSON the connector writes (request bodies) and reads (answers): bodies are the bytes
/// Foundation's `JSONSerialization` wrote (keys sorted, slashes kept), numbers in answers are
/// range-checked where they are read.
@Suite struct ServiceJSONTests {
    final class Capture: HTTPTransport {
        let body: String
        let sent = Mutex<[HTTPRequest]>([])
        init(body: String) { self.body = body }
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            sent.withLock { $0.append(request) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
    }

    func device(answering body: String) -> (DeviceSecurity, Capture) {
        let transport = Capture(body: body)
        return (
            DeviceSecurity(
                serviceURL: "http://service.test/devicesecurity", transport: transport, clock: ManualClock()), transport
        )
    }

    @Test(arguments: [
        "plain", "a\"b\\c/d", "\n\r\t\u{08}\u{0C}\u{0}\u{1}\u{1F}", "\u{7F}é😀\u{2028}", "", "{\"x\": [1]}",
    ])
    func requestBodiesAreTheBytesFoundationWrote(session: String) async throws {
        let (device, transport) = device(answering: #"{"result":66,"resCode":1001,"resMsg":"invalid"}"#)
        _ = await device.registerDevice(session)
        let request = try #require(transport.sent.withLock { $0.first })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
        #expect(fields["mvSessionId"] == session)
        let deviceID = try #require(fields["deviceId"])
        let foundation = try JSONSerialization.data(
            withJSONObject: ["mvSessionId": session, "deviceId": deviceID],
            options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(request.body == Array(foundation), "\(String(decoding: request.body, as: UTF8.self))")
    }

    func answer(_ body: String) async -> (ServiceResult, Int, String, Int64?) {
        let (device, _) = device(answering: body)
        let result = await device.registerDevice("session")
        return (result, await device.serviceResCode, await device.serviceResMsg, await device.deviceBorrowTime)
    }

    @Test func resultMustBeAWholeNumberFrom0To255() async {
        #expect(
            await answer(#"{"result":65.0,"resCode":0,"resMsg":"ok","deviceHash":"h"}"#).0 == [
                .success, .serviceSuccess,
            ])
        #expect(
            await answer(#"{"result":6.5e1,"resCode":0,"resMsg":"ok","deviceHash":"h"}"#).0 == [
                .success, .serviceSuccess,
            ])
        #expect(await answer(#"{"result":255}"#).0 == ServiceResult(rawValue: 255))
        for body in [
            #"{"result":65.5}"#, #"{"result":true}"#, #"{"result":null}"#, #"{"result":1e400}"#, #"{"result":-0.5}"#,
            #"{"result":[65]}"#,
        ] {
            let (flags, code, _, _) = await answer(body)
            #expect(flags == .serviceFault && code == DeviceResultCode.unreadableAnswer, "\(body)")
        }
    }

    @Test func resCodeAndResMsgAreRangeAndTypeChecked() async {
        #expect(await answer(#"{"result":66,"resCode":1001,"resMsg":"invalid"}"#).1 == 1001)
        #expect(await answer(#"{"result":66,"resCode":-2147483648}"#).1 == -2_147_483_648)
        for code in ["2147483648", "1e30", "1.5", "true", "\"1001\""] {
            #expect(await answer(#"{"result":66,"resCode":\#(code),"resMsg":"m"}"#).1 == 0, "\(code)")
        }
        #expect(await answer(#"{"result":66,"resCode":1,"resMsg":7}"#).2 == "")
    }

    @Test func borrowTimesAreWholePositiveSecondsWithinAHundredYears() async {
        func borrow(_ literal: String) async -> Int64? {
            await answer(#"{"result":65,"resCode":0,"resMsg":"ok","deviceHash":"h","deviceBorrowTime":\#(literal)}"#).3
        }
        #expect(await borrow("3600") == 3600)
        #expect(await borrow("3.6e3") == 3600)
        #expect(await borrow("3153600000") == 3_153_600_000)
        for literal in ["3153600001", "0", "-1", "1.5", "true", "\"3600\"", "1e400", "null"] {
            #expect(await borrow(literal) == nil, "\(literal)")
        }
    }

    /// An answer that repeats a name reads as its last member, as before.
    @Test func aRepeatedNameReadsAsTheLastMember() async {
        let (flags, code, message, _) = await answer(#"{"result":1,"resCode":5,"resMsg":"a","resMsg":"b","result":66}"#)
        #expect(flags == [.invalidMVSessionID, .serviceSuccess] && code == 5 && message == "b")
    }
}
