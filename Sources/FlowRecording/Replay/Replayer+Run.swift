import SDKSeams

extension Replayer {
    /// The seams of one replay, handed to the code that re-runs the flow.
    public struct Seams: Sendable {
        public let replayer: Replayer
        /// The SDK's transport, random source and clock.
        public var transport: ReplayTransport { replayer.transport() }
        public var randomSource: ReplayRandomSource { replayer.randomSource() }
        public var clock: ReplayClock { replayer.clock() }
        /// The browser actor's transport.
        public var browserTransport: ReplayTransport { replayer.transport(actor: .browser) }
    }

    /// Replays the cassette at `path` in one call, for test suites (XCTest or Swift Testing): reads
    /// it, runs `flow` with the replay seams, and finishes.
    ///
    /// - Throws: `CassetteError` when the file cannot be read, `ReplayError` at the first divergence
    ///   or for unused events, or whatever `flow` throws.
    public static func run(
        cassetteAt path: String, mode: ReplayMode? = nil, placeholders: [String: String] = [:],
        fallbackRandom: (any RandomSource)? = nil, fallbackClock: (any SDKClock)? = nil,
        _ flow: (Seams) async throws -> Void
    ) async throws {
        let cassette = try CassetteFile.read(path)
        let replayer = try Replayer(
            cassette: cassette, mode: mode, placeholders: placeholders, path: path,
            fallbackRandom: fallbackRandom, fallbackClock: fallbackClock)
        try await flow(Seams(replayer: replayer))
        try replayer.finish()
    }
}

extension Recorder {
    /// Writes the cassette so far to `path` (atomically, canonical form), with the values of
    /// `redacting` fields replaced by placeholders; returns the written cassette.
    @discardableResult
    public func write(to path: String, redacting fields: [String] = []) throws(CassetteError) -> Cassette {
        var cassette = cassette()
        if !fields.isEmpty { cassette = Redactor(fields: fields).redact(cassette) }
        try CassetteFile.write(cassette, to: path)
        return cassette
    }
}
