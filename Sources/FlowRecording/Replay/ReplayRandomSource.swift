import SDKSeams

/// A `RandomSource` that hands out the cassette's recorded random draws, in order.
public struct ReplayRandomSource: RandomSource {
    public let replayer: Replayer
    public let actor: EventActor

    public init(replayer: Replayer, actor: EventActor = .sdk) {
        self.replayer = replayer
        self.actor = actor
    }

    public func randomBytes(count: Int) -> [UInt8] {
        replayer.drawRandom(count: count, actor: actor)
    }
}
