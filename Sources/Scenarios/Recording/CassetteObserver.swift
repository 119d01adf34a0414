import FlowRecording
import MPinSDK
import Synchronization

/// Turns the SDK's observer events into cassette events: each API call and its result become one
/// `call` event (arguments, status, user state, outputs) and each crypto primitive a `crypto`
/// event, all with actor `sdk`. HTTP exchanges, random draws and clock reads are left out: the
/// recording (or replay) seams under the SDK see them, in the same order.
///
/// It also keeps the latest result, which the runner checks against the step's expectation (one
/// per step running at the same time, see `ConcurrentStep`).
public final class CassetteObserver: MPinObserver {
    /// Per step that runs at the same time as others (`ConcurrentStep`; -1 for the foreground).
    private struct State {
        var pending: [Int: MPinEvent.Call] = [:]
        var last: [Int: MPinEvent.Result] = [:]
    }

    private static var lane: Int { ConcurrentStep.current?.index ?? -1 }

    private let sink: (any FlowSink)?
    private let state = Mutex(State())

    public init(sink: (any FlowSink)?) {
        self.sink = sink
    }

    public func observe(_ event: MPinEvent) {
        switch event {
        case .call(let call):
            let lane = Self.lane
            state.withLock { $0.pending[lane] = call }
        case .result(let result):
            let lane = Self.lane
            let call = state.withLock { state -> MPinEvent.Call? in
                state.last[lane] = result
                return state.pending.removeValue(forKey: lane)
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
        let lane = Self.lane
        return state.withLock { $0.last.removeValue(forKey: lane) }
    }

    static func field(_ value: NamedValue) -> NamedField { NamedField(value.name, value.value) }

    static func call(_ call: MPinEvent.Call?, _ result: MPinEvent.Result) -> CassetteEvent.Call {
        CassetteEvent.Call(name: result.name, arguments: (call?.arguments ?? []).map(field),
                           status: .init(code: result.status.code.name, message: result.status.message),
                           userState: result.userState?.rawValue, outputs: result.outputs.map(field))
    }
}
