import SDKSeams

/// An `SDKClock` that reads another one and records every reading as a `clock` event.
public struct RecordingClock: SDKClock {
    public let base: any SDKClock
    public let recorder: Recorder
    public let actor: EventActor
    public let purpose: String?

    public init(base: any SDKClock, recorder: Recorder, actor: EventActor = .sdk, purpose: String? = nil) {
        self.base = base
        self.recorder = recorder
        self.actor = actor
        self.purpose = purpose
    }

    public func nowMilliseconds() -> Int64 {
        let now = base.nowMilliseconds()
        recorder.record(CassetteEvent(actor: actor, .clock(.init(purpose: purpose, milliseconds: now))))
        return now
    }
}
