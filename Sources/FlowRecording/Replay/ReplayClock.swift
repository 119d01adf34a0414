import SDKSeams

/// An `SDKClock` that hands out the cassette's recorded clock readings, in order.
public struct ReplayClock: SDKClock {
    public let replayer: Replayer
    public let actor: EventActor

    public init(replayer: Replayer, actor: EventActor = .sdk) {
        self.replayer = replayer
        self.actor = actor
    }

    public func nowMilliseconds() -> Int64 {
        replayer.readClock(actor: actor)
    }
}
