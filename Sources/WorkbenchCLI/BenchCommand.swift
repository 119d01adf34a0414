import ArgumentParser

/// `mpin-workbench bench`: the benchmarks; plain `bench` is `bench crypto`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the pairing crypto (the default) or the reference backend.",
        discussion: """
            `bench crypto` (what plain `bench` runs) times the pairing crypto per operation; `bench \
            backend` measures the reference backend's authentications per second. Both print a table, \
            or one JSON object with --json.

            Exit status: 0 when timed, 2 when the backend cannot start or the usage was wrong.

            Examples:
              mpin-workbench bench
              mpin-workbench bench backend --clients 1 4 --runs 3 --json
            """,
        subcommands: [BenchCryptoCommand.self, BenchBackendCommand.self],
        defaultSubcommand: BenchCryptoCommand.self
    )
}
