/// A group's jobs (one per test), made when they are run: runs of jobs made from their position in
/// the run, and single jobs. A plan for `vectors generate --count 100000` holds a few closures per
/// group, not one per test, so that what generation holds does not grow with the count.
///
/// ```swift
/// var jobs = VectorJobs(count: 3) { index in { rng in makeCase(index, &rng) } }   // made on demand
/// jobs.append { _ in fixedCase }
/// jobs.count   // 4
/// ```
///
/// Not a `Collection`: the compiler of Swift 6.3.1 crashes emitting the `Collection` subscript's
/// witness for this element type (a closure with an `inout` parameter) in debug builds, which the
/// example package's build is; `count`, the subscript and `map` are what the generator needs.
struct VectorJobs: ExpressibleByArrayLiteral, Sendable {
    typealias Job = @Sendable (inout SeededRandom) -> VectorTestCase

    /// `count` jobs from position `start` on; the job at `start + i` is `make(i)`.
    private struct Run: Sendable {
        var start: Int
        var count: Int
        var make: @Sendable (Int) -> Job
    }

    private var runs: [Run] = []
    /// How many jobs there are.
    private(set) var count = 0
    var isEmpty: Bool { count == 0 }

    init() {}

    /// `count` jobs (none when `count` ≤ 0); the one at position `i` is `make(i)`.
    init(count: Int, _ make: @escaping @Sendable (Int) -> Job) {
        append(count: count, make)
    }

    init(arrayLiteral jobs: Job...) {
        for job in jobs { append(job) }
    }

    /// Appends `count` jobs (none when `count` ≤ 0); the one at position `i` of the run is `make(i)`.
    mutating func append(count: Int, _ make: @escaping @Sendable (Int) -> Job) {
        guard count > 0 else { return }
        runs.append(Run(start: self.count, count: count, make: make))
        self.count += count
    }

    mutating func append(_ job: @escaping Job) {
        append(count: 1) { _ in job }
    }

    static func += (jobs: inout VectorJobs, more: VectorJobs) {
        for run in more.runs { jobs.append(count: run.count, run.make) }
    }

    /// The job at `position` (0 ..< count), made now.
    subscript(position: Int) -> Job {
        precondition(position >= 0 && position < count, "VectorJobs index \(position) out of 0..<\(count)")
        // The last run that starts at or before `position`.
        var low = 0, high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if runs[middle].start <= position { low = middle } else { high = middle - 1 }
        }
        return runs[low].make(position - runs[low].start)
    }

    /// The jobs made in order, each transformed.
    func map<T>(_ transform: (Job) throws -> T) rethrows -> [T] {
        var out: [T] = []
        out.reserveCapacity(count)
        for position in 0..<count { out.append(try transform(self[position])) }
        return out
    }
}
