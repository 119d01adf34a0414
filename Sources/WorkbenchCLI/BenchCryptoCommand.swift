import ArgumentParser
import Benchmarks
import MPinCrypto

/// `mpin-workbench bench crypto` (plain `bench` too): medians per operation of the pairing crypto.
struct BenchCryptoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "Time the pairing crypto: median per operation.",
        discussion: """
            Operations: fp_mul, fp_inverse, g1_mul, g2_mul, gt_pow, miller_loop, \
            final_exponentiation, pairing, client_1_2 (CLIENT_1 then CLIENT_2) and server_2. Each is \
            warmed up, then timed `--runs` times; the median is printed. With --json, prints one \
            object: {"curve": "bn254cx", "results": [{"name": "pairing", "medianNanoseconds": 612345, \
            "runs": 200}, ...]}.

            Exit status: 0 when timed, 2 when the usage was wrong.

            Examples:
              mpin-workbench bench
              mpin-workbench bench crypto --runs 50 --json
            """
    )

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Option(help: "Curve to time.")
    var curve = CurveArgument(.bn254cx)

    @Option(
        parsing: .unconditional, help: "Timed runs per operation (the median is reported), 1 to 100000.",
        transform: BoundedNumber.integer(BenchCryptoCommand.runsRange))
    var runs = 200

    /// `--runs`.
    static let runsRange = 1...100_000

    func run() throws {
        let runner = BenchmarkRunner(runs: runs)
        let results = BenchmarkKernels.kernels(curve: curve.id).map { kernel in
            runner.measure(
                name: kernel.name, operationsPerCall: BenchmarkKernels.operationsPerCall(kernel.name), kernel.run)
        }
        if json {
            Console.line(BenchmarkFormatter.json(curve: curve.id, results: results))
        } else {
            Console.out(BenchmarkFormatter.table(curve: curve.id, results: results))
        }
    }
}
