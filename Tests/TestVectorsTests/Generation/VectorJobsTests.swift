import Testing

@testable import TestVectors

/// `VectorJobs`: runs of jobs made on demand keep the order and positions of the arrays they replace.
@Suite("vector jobs")
struct VectorJobsTests {
    /// A job whose test names where it was made.
    static func job(_ name: String) -> VectorJobs.Job {
        { _ in VectorTestCase(comment: name, flags: [], result: .valid, fields: [:]) }
    }

    static func names(_ jobs: VectorJobs) -> [String] {
        var rng = SeededRandom(seed: 1, stream: 0)
        return jobs.map { $0(&rng).comment }
    }

    @Test("runs, single jobs and empty runs in order, at the positions an array would give")
    func positions() {
        var jobs: VectorJobs = [Self.job("first")]
        jobs += VectorJobs(count: 3) { index in Self.job("a\(index)") }
        jobs += VectorJobs(count: 0) { _ in Self.job("never") }
        jobs.append(count: -2) { _ in Self.job("never") }
        jobs.append(Self.job("middle"))
        jobs.append(count: 2) { index in Self.job("b\(index)") }
        let expected = ["first", "a0", "a1", "a2", "middle", "b0", "b1"]
        #expect(jobs.count == expected.count)
        #expect(Self.names(jobs) == expected)
        var rng = SeededRandom(seed: 1, stream: 0)
        for (position, name) in expected.enumerated() {
            #expect(jobs[position](&rng).comment == name)
        }
        #expect(VectorJobs().isEmpty)
        #expect(Self.names(VectorJobs(count: 100_000) { index in Self.job("\(index)") }).last == "99999")
    }
}
