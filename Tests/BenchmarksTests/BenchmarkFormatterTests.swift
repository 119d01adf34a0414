import Benchmarks
import MPinCrypto
import Testing

/// `bench crypto --json` is one object: the curve and each kernel's median, whole nanoseconds from
/// a microsecond up and one decimal below; the table names each kernel with a readable time.
@Suite struct BenchmarkFormatterTests {
    let results = [
        BenchmarkResult(name: "pairing", medianNanoseconds: 612_345.4, runs: 200, batch: 1),
        BenchmarkResult(name: "fp mul", medianNanoseconds: 12.34, runs: 200, batch: 4096),
    ]

    @Test func theJSONHoldsEachMedian() {
        let json = BenchmarkFormatter.json(curve: .bn254cx, results: results)
        #expect(json.hasPrefix("{\"curve\": \"bn254cx\""), "\(json)")
        #expect(json.contains("{\"name\": \"pairing\", \"medianNanoseconds\": 612345, \"runs\": 200"), "\(json)")
        #expect(json.contains("\"medianNanoseconds\": 12.3,"), "\(json)")
    }

    @Test func theTableNamesEachKernel() {
        let table = BenchmarkFormatter.table(curve: .bn254cx, results: results)
        #expect(table.contains("pairing") && table.contains("fp mul"), "\(table)")
        #expect(table.contains("612.35 µs") && table.contains("12.3 ns"), "\(table)")
    }
}
