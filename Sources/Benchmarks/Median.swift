/// The median of a sample, the one definition the benchmarks use: the middle value of the sorted
/// sample, and for an even count the mean of the two middle ones; 0 for an empty sample.
package enum Median {
    package static func of(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
