/// The median time of one operation.
package struct BenchmarkResult: Sendable, Equatable {
    package var name: String
    /// Median over `runs` samples of the time of one call, in nanoseconds.
    package var medianNanoseconds: Double
    /// Samples taken (each sample times a batch of calls when one call is too short to time alone).
    package var runs: Int
    /// Calls per sample.
    package var batch: Int

    package init(name: String, medianNanoseconds: Double, runs: Int, batch: Int) {
        self.name = name
        self.medianNanoseconds = medianNanoseconds
        self.runs = runs
        self.batch = batch
    }
}

/// Times closures: warm-up, then `runs` samples, then the median.
///
/// A call shorter than about 20 µs is timed in batches (doubling until a batch takes 20 µs), so that
/// the clock's own cost (tens of nanoseconds) does not dominate. The kernels come from the crypto
/// core (`BenchmarkKernels`): timing code in this module only calls them.
package struct BenchmarkRunner: Sendable {
    package var runs: Int
    /// Samples run and discarded before measuring.
    package var warmUpRuns: Int
    /// Shortest sample worth timing, in nanoseconds.
    package var minimumSampleNanoseconds: Double = 20_000

    package init(runs: Int) {
        self.runs = max(1, runs)
        warmUpRuns = max(3, min(50, runs / 10))
    }

    /// Times `operation`, which performs `operationsPerCall` operations and returns a value that
    /// depends on them (consumed, so that the work cannot be optimised away).
    package func measure(name: String, operationsPerCall: Int = 1, _ operation: () -> Int) -> BenchmarkResult {
        let clock = ContinuousClock()
        var sink = 0
        var batch = 1
        while batch < 1 << 24 {
            let elapsed = Self.nanoseconds(clock.measure { sink &+= Self.repeatCall(operation, batch) })
            if elapsed >= minimumSampleNanoseconds { break }
            batch *= elapsed * 4 < minimumSampleNanoseconds ? 4 : 2
        }
        for _ in 0..<warmUpRuns { sink &+= Self.repeatCall(operation, batch) }
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        let perSample = Double(batch * max(1, operationsPerCall))
        for _ in 0..<runs {
            let elapsed = clock.measure { sink &+= Self.repeatCall(operation, batch) }
            samples.append(Self.nanoseconds(elapsed) / perSample)
        }
        Self.consume(sink)
        return BenchmarkResult(name: name, medianNanoseconds: Median.of(samples), runs: runs, batch: batch)
    }

    @inline(never)
    static func repeatCall(_ operation: () -> Int, _ count: Int) -> Int {
        var accumulated = 0
        for _ in 0..<count { accumulated &+= operation() }
        return accumulated
    }

    @inline(never)
    static func consume(_ value: Int) {
        if value == Int.min { print("", terminator: "") }
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

}
