import DeviceSecurity
import FlowRecording
import Synchronization

/// Turns the DeviceSecurity connector's events into cassette `call` events of actor `device`:
/// each API call with its result (status: the `ServiceResult` flag names, message: the result
/// message). Inner calls of `doLogin` come first, then `doLogin` itself. HTTP exchanges, clock
/// reads and random draws are left out: the recording (or replay) seams under the connector see them.
///
/// It also keeps the latest top-level result, which the runner checks against the step's expectation.
final class DeviceCassetteObserver: DeviceSecurityObserver {
    private struct State {
        var pending: [DeviceSecurityEvent.Call] = []
        var last: DeviceSecurityEvent.Result?
    }

    private let sink: (any FlowSink)?
    private let state = Mutex(State())
    static let actor = EventActor(rawValue: "device")

    init(sink: (any FlowSink)?) {
        self.sink = sink
    }

    func observe(_ event: DeviceSecurityEvent) {
        switch event {
        case .call(let call):
            state.withLock { $0.pending.append(call) }
        case .result(let result):
            let call = state.withLock { state -> DeviceSecurityEvent.Call? in
                state.last = result
                return state.pending.popLast()
            }
            let status = Self.hasFlags(result.name) ? result.serviceResult.description : "OK"
            sink?.call(CassetteEvent.Call(name: result.name, arguments: (call?.arguments ?? []).map { NamedField($0.name, $0.value) },
                                          status: .init(code: status, message: result.resMessage),
                                          outputs: Self.outputs(result).map { NamedField($0.name, $0.value) }),
                       actor: Self.actor)
        default:
            break
        }
    }

    /// The result of the latest call, and forgets it.
    func takeResult() -> DeviceSecurityEvent.Result? {
        state.withLock { state in
            defer { state.last = nil }
            return state.last
        }
    }

    static func hasFlags(_ name: String) -> Bool { ["registerDevice", "applicationLogin", "doLogin"].contains(name) }

    /// `serviceResult` (the number), `resCode`, then the call's own outputs.
    static func outputs(_ result: DeviceSecurityEvent.Result) -> [(name: String, value: String)] {
        (hasFlags(result.name) ? [("serviceResult", String(result.serviceResult.rawValue)), ("resCode", String(result.resCode))] : [])
            + result.outputs.map { ($0.name, $0.value) }
    }
}
