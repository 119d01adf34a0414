import Foundation
import MPinSDK
import Testing

@Suite struct ObserverTests {
    @Test func eventsComeInOrderPerCall() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        harness.transport.add(Canned.timePermits + [Canned.pass1(), Canned.pass2(), Canned.rpa()])
        let before = harness.log.events.count
        try await harness.client.startAuthentication(user)
        _ = try await harness.client.finishAuthentication(user, pin: "1234")
        let events = Array(harness.log.events[before...])
        let shape = events.map { event -> String in
            switch event {
            case .call: "c"
            case .result: "r"
            case .http: "h"
            case .crypto: "x"
            case .random: "n"
            case .clock: "t"
            case .note: "o"
            }
        }.joined()
        // start: call, three permit requests, result; finish: call, hashID, mapToG1, recombine,
        // random draw, randomScalar, client1, pass1, client2, pass2, RPA, result.
        #expect(shape == "chhhr" + "cxxxnxxhxhhr")
        let primitives = events.compactMap { if case .crypto(let step) = $0 { step.primitive } else { nil } }
        #expect(primitives == ["hashID", "mapToG1", "recombineG1", "randomScalar", "client1", "client2"])
        guard case .call(let call) = events[5] else {
            Issue.record("no call")
            return
        }
        #expect(call.name == "finishAuthentication")
        #expect(
            call.arguments == [
                NamedValue("user", "testUser"), NamedValue("pin", "1234"), NamedValue("secondFactor", ""),
            ])
        guard case .result(let result) = events.last else {
            Issue.record("no result")
            return
        }
        #expect(result.status == ClientEvent.Status(code: "OK", message: "OK"))
        #expect(result.status == ClientEvent.Status(.ok))
        #expect(result.userState == UserState.registered.rawValue)
        #expect(result.outputs.first?.name == "authResultData")
        guard case .random(let draw) = events[9] else {
            Issue.record("no random draw")
            return
        }
        #expect(draw.purpose == "x")
        #expect(!draw.bytes.isEmpty)
        guard case .http(let exchange) = events[12] else {
            Issue.record("no exchange")
            return
        }
        #expect(exchange.context == RequestContext.authenticatePass1.rawValue)
        #expect(exchange.response?.status == 200)
    }

    @Test func failuresAreReportedWithTheirStatus() async throws {
        let harness = Harness()
        try await harness.start()
        _ = await mpinError { () async throws(MPinError) in try await harness.client.checkAccessNumber("6419791") }
        guard case .result(let result) = harness.log.events.last else {
            Issue.record("no result")
            return
        }
        #expect(result.name == "checkAccessNumber")
        #expect(result.status.code == "INCORRECT_ACCESS_NUMBER")
        #expect(StatusCode(name: result.status.code) == .incorrectAccessNumber)
    }

    @Test func registrationCryptoSteps() async throws {
        let harness = Harness()
        _ = try await harness.registered()
        #expect(harness.log.cryptoPrimitives == ["hashID", "mapToG1", "recombineG1", "extractPIN"])
        let extract = harness.log.events.compactMap {
            if case .crypto(let step) = $0, step.primitive == "extractPIN" { step } else { nil }
        }
        #expect(extract.first?.inputs.map(\.name) == ["mpinId", "pin", "clientSecret"])
        #expect(extract.first?.inputs[1].value == "9442")
        #expect(extract.first?.outputs.first?.value.count == 130)
    }
}
