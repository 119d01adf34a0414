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
            Available today: known-answer vectors (`vectors verify`) and benchmarks of the pairing \
            crypto (`bench`). Recording and replaying flows come in later versions.
            """,
        version: WorkbenchVersion.current,
        subcommands: [VectorsCommand.self, BenchCommand.self, CassetteCommand.self, ServeCommand.self,
                      RunCommand.self, RecordCommand.self, ReplayCommand.self,
                      ChecksumCommand.self]
    )

    public init() {}
}
