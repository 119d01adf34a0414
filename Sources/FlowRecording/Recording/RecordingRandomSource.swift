import SDKSeams

/// A `RandomSource` that draws from another one and records every draw as a `random` event.
public struct RecordingRandomSource: RandomSource {
    public let base: any RandomSource
    public let recorder: Recorder
    public let actor: EventActor
    public let purpose: String?

    public init(base: any RandomSource, recorder: Recorder, actor: EventActor = .sdk, purpose: String? = nil) {
        self.base = base
        self.recorder = recorder
        self.actor = actor
        self.purpose = purpose
    }

    public func randomBytes(count: Int) -> [UInt8] {
        let bytes = base.randomBytes(count: count)
        recorder.record(CassetteEvent(actor: actor, .random(.init(purpose: purpose, bytes: bytes))))
        return bytes
    }
}
