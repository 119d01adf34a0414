import ArgumentParser

/// The root command, `mpin-workbench`.
///
/// The executable target only calls `WorkbenchCommand.main()`; every subcommand lives in this
/// library so that tests can run them in-process.
public struct WorkbenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "mpin-workbench",
        abstract: "Record, replay and vector tooling for the Milagro M-Pin authentication protocol.",
        discussion: """
            Runs, records and replays scenario flows against a backend (or the embedded reference \
            backend), inspects cassettes, verifies and generates known-answer vectors, and times \
            the pairing crypto. `mpin-workbench help <subcommand>` describes each.
            """,
        version: WorkbenchVersion.current,
        subcommands: [VectorsCommand.self, BenchCommand.self, CassetteCommand.self, ServeCommand.self,
                      RunCommand.self, RecordCommand.self, ReplayCommand.self,
                      ChecksumCommand.self]
    )

    public init() {}
}
