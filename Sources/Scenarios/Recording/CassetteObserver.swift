import FlowRecording
import MPinSDK
import Synchronization

/// Turns the SDK's observer events into cassette events: each API call and its result become one
/// `call` event (arguments, status, user state, outputs) and each crypto primitive a `crypto`
/// event, all with actor `sdk`. HTTP exchanges, random draws and clock reads are left out: the
/// recording (or replay) seams under the SDK see them, in the same order.
///
/// It also keeps the latest result, which the runner checks against the step's expectation.
public final class CassetteObserver: MPinObserver {
    private struct State {
        var pending: MPinEvent.Call?
        var last: MPinEvent.Result?
    }

    private let sink: (any FlowSink)?
    private let state = Mutex(State())

    public init(sink: (any FlowSink)?) {
        self.sink = sink
    }

    public func observe(_ event: MPinEvent) {
        switch event {
        case .call(let call):
            state.withLock { $0.pending = call }
        case .result(let result):
            let call = state.withLock { state -> MPinEvent.Call? in
                state.last = result
                defer { state.pending = nil }
                return state.pending
            }
            sink?.call(Self.call(call, result), actor: .sdk)
        case .crypto(let step):
            sink?.crypto(CassetteEvent.CryptoStep(primitive: step.primitive, inputs: step.inputs.map(Self.field),
                                                  outputs: step.outputs.map(Self.field)), actor: .sdk)
        case .http, .random, .clock:
            break
        }
    }

    /// The result of the latest call, and forgets it.
    public func takeResult() -> MPinEvent.Result? {
        state.withLock { state in
            defer { state.last = nil }
            return state.last
        }
    }

    static func field(_ value: NamedValue) -> NamedField { NamedField(value.name, value.value) }

    static func call(_ call: MPinEvent.Call?, _ result: MPinEvent.Result) -> CassetteEvent.Call {
        CassetteEvent.Call(name: result.name, arguments: (call?.arguments ?? []).map(field),
                           status: .init(code: result.status.code.name, message: result.status.message),
                           userState: result.userState?.rawValue, outputs: result.outputs.map(field))
    }
}
