import DeviceSecurity
import SDKSeams
import Testing

/// How the connector reports its calls in the shared event model: the status and outputs of each
/// result, and its notes.
@Suite struct ClientEventReportingTests {
    static let stateOutputs = ["mvSessionId", "accessIdentifier", "deviceHash", "deviceBorrowTime"]

    @Test func serviceCallsReportTheirFlagsCodeAndMessage() async {
        let fixture = Fixture()
        _ = await fixture.login()
        let results = fixture.log.results
        #expect(results.map(\.name) == ["applicationLogin", "registerDevice", "applicationLogin", "doLogin"])
        #expect(
            results.map(\.status.code) == [
                "DeviceBorrowTimeExpired", "Success|ServiceSuccess", "Success|ServiceSuccess",
                "Success|DeviceBorrowTimeExpired|ServiceSuccess",
            ])
        #expect(
            results.map(\.status.message) == [
                "the device is not registered", "device registered", "access granted", "access granted",
            ])
        #expect(results[0].outputs.map(\.name) == ["serviceResult", "resCode"] + Self.stateOutputs)
        #expect(results[0].outputs.value(named: "serviceResult") == "16")
        #expect(results[0].outputs.value(named: "resCode") == "-3")
        let login = results[3]
        #expect(
            login.outputs.map(\.name) == ["serviceResult", "resCode", "hasAccess", "loginShown"] + Self.stateOutputs)
        #expect(login.outputs.value(named: "serviceResult") == "81")
        #expect(login.outputs.value(named: "hasAccess") == "1")
        #expect(login.outputs.value(named: "deviceHash") == "hash-1")
        #expect(results.allSatisfy { $0.userState == nil })
    }

    @Test func localCallsReportOKWithNoMessage() async {
        let fixture = Fixture()
        await fixture.device.excludeLoginGroup(.private)
        #expect(
            fixture.log.all.first
                == .call(.init(name: "excludeLoginGroup", arguments: [NamedValue("group", "private")])))
        let result = fixture.log.results.last
        #expect(result?.status == ClientEvent.Status(code: "OK", message: ""))
        #expect(result?.outputs == Self.stateOutputs.map { NamedValue($0, "") })
    }

    @Test func theLoginResponseIsANoteJustBeforeTheResultOfDoLogin() async {
        let fixture = Fixture()
        let (_, response) = await fixture.login()
        let events = fixture.log.all
        guard events.count >= 2, case .note(let note) = events[events.count - 2],
            case .result(let result) = events[events.count - 1]
        else {
            Issue.record("the last two events are not the note and the result: \(events.suffix(2))")
            return
        }
        #expect(result.name == "doLogin")
        #expect(note.name == "loginResponse")
        #expect(
            note.values == [
                NamedValue("serviceResult", String(response.serviceResult.rawValue)), NamedValue("hasAccess", "1"),
                NamedValue("serviceResCode", "0"), NamedValue("serviceResMsg", "access granted"),
                NamedValue("accessIdentifier", "app"),
            ])
        #expect(fixture.log.notes.count == 1)
    }

    @Test func exchangesNameTheServiceOperation() async {
        let fixture = Fixture()
        _ = await fixture.login()
        let contexts = fixture.log.all.compactMap { if case .http(let exchange) = $0 { exchange.context } else { nil } }
        #expect(contexts == ["registerDevice", "applicationLogin"])
    }
}
