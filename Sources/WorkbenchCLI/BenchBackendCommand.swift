import ArgumentParser
import Benchmarks

/// `mpin-workbench bench backend` (formerly `serve --bench`): authentications per second of the
/// reference backend, measured with in-process SDK clients (`ServeBenchmark`).
struct BenchBackendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Measure the reference backend's authentications per second with in-process SDK clients.",
        discussion: """
            Starts a reference backend of its own on a free loopback port and, for each --clients \
            count, runs --runs rounds of --authentications authentications by that many concurrent \
            SDK clients over libcurl; prints the median rate next to the bound the crypto sets, the \
            latency percentiles, the CPU time per authentication, the connections opened and the peak \
            resident memory. With --json, one JSON object (rates, latency percentiles in µs, CPU, \
            connections, peak RSS, the crypto bound) instead of text.

            `serve --bench` and its --bench-clients, --bench-runs, --bench-authentications and \
            --bench-json still work, with a warning naming this spelling.

            Exit status: 0 when measured, 2 when the backend cannot start or the usage was wrong.

            Examples:
              mpin-workbench bench backend
              mpin-workbench bench backend --clients 1 2 --runs 2 --authentications 4 --json
            """
    )

    @Option(
        parsing: .upToNextOption, help: "Concurrent clients to measure, each 1 to 256 (default 1 4 16).",
        transform: BoundedNumber.integer(1...256))
    var clients = BenchBackendCommand.defaultClients

    @Option(
        parsing: .unconditional, help: "Runs per client count, 1 to 1000; the median is reported (default 5).",
        transform: BoundedNumber.integer(BenchBackendCommand.runsRange))
    var runs = BenchBackendCommand.defaultRuns

    @Option(
        parsing: .unconditional, help: "Authentications per run, 1 to 100000 (default 64).",
        transform: BoundedNumber.integer(BenchBackendCommand.authenticationsRange))
    var authentications = BenchBackendCommand.defaultAuthentications

    @Flag(
        help:
            "Print one JSON object (rates, latency percentiles in µs, CPU, connections, peak RSS, the crypto bound) instead of text."
    )
    var json = false

    static let runsRange = 1...1_000
    static let authenticationsRange = 1...100_000
    static let defaultClients = [1, 4, 16]
    static let defaultRuns = 5
    static let defaultAuthentications = 64

    func run() async throws {
        let benchmark = ServeBenchmark(clientCounts: clients, runs: runs, authenticationsPerRun: authentications)
        try await benchmark.run(say: Console.line, json: json)
    }
}
