import FlowRecording
import SDKSeams
import Synchronization

/// Turns a client's observer events (`ClientEvent`, from the M-Pin SDK or the DeviceSecurity
/// connector) into cassette events of one actor (`sdk` for the SDK, `device` for the connector):
/// each API call with its result becomes one `call` event (arguments, status code and message,
/// user state, outputs) and each crypto primitive a `crypto` event. Inner calls (the connector's
/// `doLogin` makes `registerDevice` and `applicationLogin` calls) end first, so they are written
/// first, the outer call after them. HTTP exchanges, random draws and clock reads are left out:
/// the recording (or replay) seams under the client see them, in the same order. Notes are left
/// out too.
///
/// It also keeps the latest result, which the runner checks against the step's expectation (one
/// per step running at the same time, see `ConcurrentStep`).
public final class CassetteObserver: ClientObserver {
    /// Per step that runs at the same time as others (`ConcurrentStep`; -1 for the foreground).
    private struct State {
        /// The calls that have started and not ended, innermost last.
        var pending: [Int: [ClientEvent.Call]] = [:]
        var last: [Int: ClientEvent.Result] = [:]
    }

    private static var lane: Int { ConcurrentStep.current?.index ?? -1 }

    private let sink: (any FlowSink)?
    /// The actor of the events written.
    public let actor: EventActor
    private let state = Mutex(State())

    package init(sink: (any FlowSink)?, actor: EventActor = .sdk) {
        self.sink = sink
        self.actor = actor
    }

    public func observe(_ event: ClientEvent) {
        switch event {
        case .call(let call):
            let lane = Self.lane
            state.withLock { $0.pending[lane, default: []].append(call) }
        case .result(let result):
            let lane = Self.lane
            let call = state.withLock { state -> ClientEvent.Call? in
                state.last[lane] = result
                return state.pending[lane]?.popLast()
            }
            sink?.call(Self.call(call, result), actor: actor)
        case .crypto(let step):
            sink?.crypto(
                CassetteEvent.CryptoStep(
                    primitive: step.primitive, inputs: step.inputs.map(Self.field),
                    outputs: step.outputs.map(Self.field)), actor: actor)
        case .http, .random, .clock, .note:
            break
        }
    }

    /// The result of the latest call, and forgets it.
    public func takeResult() -> ClientEvent.Result? {
        let lane = Self.lane
        return state.withLock { $0.last.removeValue(forKey: lane) }
    }

    static func field(_ value: NamedValue) -> NamedField { NamedField(value.name, value.value) }

    /// The cassette event of a call that ended (its arguments from the matching `call` event).
    static func call(_ call: ClientEvent.Call?, _ result: ClientEvent.Result) -> CassetteEvent.Call {
        CassetteEvent.Call(
            name: result.name, arguments: (call?.arguments ?? []).map(field),
            status: .init(code: result.status.code, message: result.status.message),
            userState: result.userState, outputs: result.outputs.map(field))
    }
}
