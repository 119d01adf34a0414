import ArgumentParser
import Benchmarks
import Foundation
import MPinCrypto
import OrderedJSON
import TestVectors

/// `mpin-workbench vectors bench`: two-pass vectors generated per second on one core and on all
/// cores, against the limit SERVER_2's pairing product sets.
struct VectorsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Benchmark: mpin-two-pass vectors generated per second (1 core, all cores) against the SERVER_2 bound.",
        discussion: """
            Generates --count mpin-two-pass tests (each with the SERVER_2 check; a third with wrong \
            PINs also compute F and run KANGAROO) with one chunk at a time, then on all cores, best \
            of --runs. The bound is 1 / (median SERVER_2 time) per core: a vector can never be \
            cheaper than its SERVER_2 pairing product.

            Exit status: 0 when timed, 2 when the usage was wrong.

            Examples:
              mpin-workbench vectors bench
              mpin-workbench vectors bench --count 96 --runs 5
            """
    )

    @Option(help: "The curve.")
    var curve: CurveArgument = CurveArgument(.bn254cx)

    @Option(
        parsing: .unconditional, help: "Tests per run, 1 to 10000.",
        transform: BoundedNumber.integer(VectorsBenchCommand.countRange))
    var count = 48

    @Option(
        parsing: .unconditional, help: "Runs per configuration (the best is reported), 1 to 1000.",
        transform: BoundedNumber.integer(VectorsBenchCommand.runsRange))
    var runs = 3

    /// `--count` and `--runs`.
    static let countRange = 1...10_000
    static let runsRange = 1...1_000

    func run() async throws {
        let mpin = MPin(curve: curve.id)
        let serverMedian = Self.server2Median(mpin: mpin, samples: 41)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        Console.line("mpin-two-pass vectors per second, \(curve.id.rawValue), \(count) tests a run, best of \(runs)")
        Console.line("SERVER_2 median: \(String(format: "%.3f", serverMedian * 1000)) ms")
        Console.line("| cores | vectors/s | SERVER_2 bound (vectors/s) | share of the bound |")
        Console.line("|---|---|---|---|")
        for concurrency in [1, cores] {
            var best = Double.infinity
            var tests = 0
            for run in 0..<max(1, runs) {
                let generator = VectorGenerator(
                    suite: .mpinTwoPass, curve: curve.id, count: count, seed: "bench-\(run)")
                let start = DispatchTime.now().uptimeNanoseconds
                let document = await generator.generate(maxConcurrency: concurrency)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                tests = document["numberOfTests"]?.intValue ?? 0
                best = min(best, seconds)
            }
            let rate = Double(tests) / best
            let bound = Double(concurrency) / serverMedian
            Console.line(
                "| \(concurrency) | \(String(format: "%.1f", rate)) | \(String(format: "%.1f", bound)) | \(String(format: "%.0f", 100 * rate / bound)) % |"
            )
        }
    }

    /// The median time of SERVER_2 on a valid two-pass exchange, in seconds.
    static func server2Median(mpin: MPin, samples: Int) -> Double {
        var rng = SeededRandom(seed: 1, stream: 1)
        let id = Array("bench@example.com".utf8)
        let hcid = mpin.hashID(id)
        let s = mpin.randomScalar(using: &rng)
        let serverSecret = mpin.serverSecret(masterSecret: s)!
        let token = mpin.extractPIN(id: id, pin: 1234, token: mpin.clientSecret(masterSecret: s, hashedID: hcid)!)!
        let x = mpin.randomScalar(using: &rng), y = mpin.randomScalar(using: &rng)
        let c1 = mpin.client1(date: 0, id: id, x: x, pin: 1234, token: token, permit: nil)!
        let v = mpin.client2(x: x, y: y, sec: c1.sec)!
        let (hid, _) = mpin.server1(date: 0, id: id)
        var times: [Double] = []
        for _ in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = mpin.server2(
                date: 0, hid: hid, htid: nil, y: y, serverSecret: serverSecret, u: c1.u, ut: nil, v: v)
            precondition(result == .ok)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Median.of(times)
    }
}
