import FlowRecording

/// Where a run's API results and crypto steps go: a `Recorder` (record), a `Replayer` (replay),
/// or nowhere (a plain run).
public protocol FlowSink: Sendable {
    func call(_ call: CassetteEvent.Call, actor: EventActor)
    func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor)
}

/// Appends to a recorder.
public struct RecorderSink: FlowSink {
    public let recorder: Recorder
    public init(_ recorder: Recorder) { self.recorder = recorder }
    public func call(_ call: CassetteEvent.Call, actor: EventActor) { recorder.recordCall(call, actor: actor) }
    public func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor) { recorder.recordCrypto(step, actor: actor) }
}

/// Checks against a replayer's cassette.
public struct ReplayerSink: FlowSink {
    public let replayer: Replayer
    public init(_ replayer: Replayer) { self.replayer = replayer }
    public func call(_ call: CassetteEvent.Call, actor: EventActor) { replayer.check(call: call, actor: actor) }
    public func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor) { replayer.check(crypto: step, actor: actor) }
}
