import Benchmarks
import Testing

/// The one median of the benchmarks: the middle of the sorted sample, the mean of the two middle
/// values for an even count, 0 for none.
@Suite struct MedianTests {
    @Test func theMiddleOfTheSortedSample() {
        #expect(Median.of([]) == 0)
        #expect(Median.of([7]) == 7)
        #expect(Median.of([9, 1, 5]) == 5)
        #expect(Median.of([4, 1, 3, 2]) == 2.5)
        #expect(Median.of([1, 1_000_000, 2]) == 2)
    }
}
