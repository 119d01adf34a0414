import FlowRecording

/// Where a run's API results and crypto steps go: a `Recorder` (record), a `Replayer` (replay),
/// or nowhere (a plain run).
package protocol FlowSink: Sendable {
    func call(_ call: CassetteEvent.Call, actor: EventActor)
    func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor)
}

/// Appends to a recorder.
package struct RecorderSink: FlowSink {
    package let recorder: Recorder
    package init(_ recorder: Recorder) { self.recorder = recorder }
    package func call(_ call: CassetteEvent.Call, actor: EventActor) { recorder.recordCall(call, actor: actor) }
    package func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor) {
        recorder.recordCrypto(step, actor: actor)
    }
}

/// Checks against a replayer's cassette.
package struct ReplayerSink: FlowSink {
    package let replayer: Replayer
    package init(_ replayer: Replayer) { self.replayer = replayer }
    package func call(_ call: CassetteEvent.Call, actor: EventActor) { replayer.check(call: call, actor: actor) }
    package func crypto(_ step: CassetteEvent.CryptoStep, actor: EventActor) {
        replayer.check(crypto: step, actor: actor)
    }
}
