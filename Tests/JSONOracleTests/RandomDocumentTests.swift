import FlowRecording
import TestSupport
import Testing

/// OrderedJSON against jansson on random documents from a seeded writer, and on random edits of
/// them: every rule of `Differential` holds for each (`JSON_ORACLE_SEED` replays another seed).
@Suite struct RandomDocumentTests {
    /// How many documents each test reads; bounded, so that the suite takes about a second.
    static let documents = 1500

    @Test func randomDocumentsReadAlike() {
        let seed = SplitMix64.jsonSeedForRun()
        var writer = RandomDocument(seed: seed)
        var kinds: Set<PortableJSON.Finding.Kind> = []
        var comparedValues = 0
        for index in 0..<Self.documents {
            let reading = Differential(writer.next(), name: "random document \(index) of seed \(jsonSeedString(seed))")
            #expect(reading.oursAccepts, "\(reading.name): OrderedJSON refuses what the writer wrote: \(reading.ours)")
            for problem in reading.problems { Issue.record(Comment(rawValue: problem)) }
            kinds.formUnion(reading.kinds)
            if reading.oursAccepts, reading.janssonAccepts { comparedValues += 1 }
        }
        // The writer reaches every difference, and most documents are compared value by value.
        #expect(
            kinds == Set(PortableJSON.Finding.Kind.allCases),
            "never seen: \(Set(PortableJSON.Finding.Kind.allCases).subtracting(kinds))")
        #expect(comparedValues > Self.documents / 3, "only \(comparedValues) documents read by both")
    }

    @Test func editedDocumentsGetTheSameVerdicts() {
        let seed = SplitMix64.jsonSeedForRun() &+ 1
        var writer = RandomDocument(seed: seed)
        var refused = 0
        for index in 0..<Self.documents * 2 {
            let bytes = writer.mutate(writer.next())
            let reading = Differential(
                bytes, name: "edited document \(index) of seed \(jsonSeedString(seed)): \(bytes)")
            for problem in reading.problems { Issue.record(Comment(rawValue: problem)) }
            if !reading.oursAccepts { refused += 1 }
        }
        #expect(refused > Self.documents / 2, "only \(refused) edited documents refused")
    }
}
