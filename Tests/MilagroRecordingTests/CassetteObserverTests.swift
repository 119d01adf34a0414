import FlowRecording
import MilagroRecording
import SDKSeams
import Scenarios
import Synchronization
import Testing

/// The one observer that turns both clients' events into cassette events.
@Suite struct CassetteObserverTests {
    /// Keeps what the observer writes.
    final class Collected: FlowSink {
        enum Entry: Equatable {
            case call(CassetteEvent.Call, EventActor)
            case crypto(CassetteEvent.CryptoStep, EventActor)
        }
        private let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
        func call(_ call: CassetteEvent.Call, actor: EventActor) { entries.withLock { $0.append(.call(call, actor)) } }
        func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor) {
            entries.withLock { $0.append(.crypto(step, actor)) }
        }
    }

    static func call(_ name: String, _ arguments: [NamedValue]) -> ClientEvent {
        .call(.init(name: name, arguments: arguments))
    }
    static func result(_ name: String, _ code: String, _ outputs: [NamedValue] = []) -> ClientEvent {
        .result(.init(name: name, status: .init(code: code, message: "m-" + name), outputs: outputs))
    }

    @Test func anSDKCallBecomesOneCallEventAfterItsCryptoSteps() {
        let sink = Collected()
        let observer = CassetteObserver(sink: sink)
        let request = HTTPRequest(method: .get, url: "http://127.0.0.1:8005/rps/clientSettings")
        observer.observe(Self.call("finishAuthentication", [NamedValue("user", "alice"), NamedValue("pin", "1234")]))
        observer.observe(
            .crypto(.init(primitive: "client1", inputs: [NamedValue("x", "0a")], outputs: [NamedValue("u", "0b")])))
        observer.observe(
            .http(
                .init(context: "authenticatePass1", request: request, response: HTTPResponse(status: 200), error: nil)))
        observer.observe(.random(.init(purpose: "x", bytes: [1, 2])))
        observer.observe(.clock(.init(purpose: "otpReceived", milliseconds: 5)))
        observer.observe(.note(.init(name: "anything", values: [])))
        observer.observe(
            .result(
                .init(
                    name: "finishAuthentication", status: .init(code: "OK", message: "OK"), userState: "REGISTERED",
                    outputs: [NamedValue("authResultData", "{}")])))
        #expect(
            sink.all == [
                .crypto(
                    .init(primitive: "client1", inputs: [NamedField("x", "0a")], outputs: [NamedField("u", "0b")]), .sdk
                ),
                .call(
                    .init(
                        name: "finishAuthentication",
                        arguments: [NamedField("user", "alice"), NamedField("pin", "1234")],
                        status: .init(code: "OK", message: "OK"), userState: "REGISTERED",
                        outputs: [NamedField("authResultData", "{}")]),
                    .sdk),
            ])
        #expect(observer.takeResult()?.userState == "REGISTERED")
        #expect(observer.takeResult() == nil)
    }

    /// The connector's `doLogin` makes inner calls: each result is paired with its own call.
    @Test func nestedCallsEndInnermostFirstWithTheirOwnArguments() {
        let sink = Collected()
        let observer = CassetteObserver(sink: sink, actor: .device)
        observer.observe(Self.call("doLogin", [NamedValue("accessIdentifier", "app")]))
        observer.observe(Self.call("registerDevice", [NamedValue("mvSessionID", "s1")]))
        observer.observe(Self.result("registerDevice", "Success|ServiceSuccess", [NamedValue("serviceResult", "65")]))
        observer.observe(.note(.init(name: "loginResponse", values: [NamedValue("hasAccess", "1")])))
        observer.observe(Self.result("doLogin", "Success|ServiceSuccess"))
        #expect(
            sink.all == [
                .call(
                    .init(
                        name: "registerDevice", arguments: [NamedField("mvSessionID", "s1")],
                        status: .init(code: "Success|ServiceSuccess", message: "m-registerDevice"),
                        outputs: [NamedField("serviceResult", "65")]), .device),
                .call(
                    .init(
                        name: "doLogin", arguments: [NamedField("accessIdentifier", "app")],
                        status: .init(code: "Success|ServiceSuccess", message: "m-doLogin")), .device),
            ])
        #expect(observer.takeResult()?.name == "doLogin")
    }

    /// Steps that run at the same time keep their own calls and results.
    @Test func concurrentStepsKeepTheirOwnCallAndResult() async {
        let sink = Collected()
        let observer = CassetteObserver(sink: sink)
        let first = ScenarioStep(index: 3, name: "first")
        let second = ScenarioStep(index: 4, name: "second")
        ConcurrentStep.$current.withValue(first) {
            observer.observe(Self.call("listUsers", [NamedValue("backend", "a")]))
        }
        ConcurrentStep.$current.withValue(second) { observer.observe(Self.call("listBackends", [])) }
        ConcurrentStep.$current.withValue(first) { observer.observe(Self.result("listUsers", "OK")) }
        ConcurrentStep.$current.withValue(second) { observer.observe(Self.result("listBackends", "FLOW_ERROR")) }
        guard case .call(let users, _)? = sink.all.first else {
            Issue.record("no call event")
            return
        }
        #expect(users.arguments == [NamedField("backend", "a")])
        #expect(observer.takeResult() == nil)
        #expect(ConcurrentStep.$current.withValue(second) { observer.takeResult()?.status.code } == "FLOW_ERROR")
        #expect(ConcurrentStep.$current.withValue(first) { observer.takeResult()?.name } == "listUsers")
    }
}
