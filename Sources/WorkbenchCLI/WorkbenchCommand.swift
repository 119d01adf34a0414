import ArgumentParser
import Foundation
import MilagroRecording
import Scenarios

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

            Exit status, the same rule on every command: 0 when it succeeded, 1 when the check failed \
            (a vector, a replay, a lint or a flow check found a problem), 2 when the input could not \
            be read or the usage was wrong (a missing or unreadable file, an unknown option, a value \
            out of range); each command's help says which checks it makes.
            """,
        version: WorkbenchVersion.current,
        subcommands: [VectorsCommand.self, BenchCommand.self, CassetteCommand.self, ServeCommand.self, ProxyCommand.self,
                      RunCommand.self, RecordCommand.self, ReplayCommand.self,
                      ChecksumCommand.self, ConformCommand.self]
    )

    public init() {}

    /// Runs the command line. A usage error (an unknown option, a missing argument, a value out of
    /// its range) exits with status 2, the Unix convention for usage errors, as the commands' own
    /// "cannot read" errors do; the argument parser's default would be 64. Everything else (help,
    /// `--version`, a command's own exit code) is left to the parser.
    public static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error) + "\n")
                Foundation.exit(usageErrorStatus)
            }
            exit(withError: error)
        }
    }

    /// The exit status of a usage error.
    public static let usageErrorStatus: Int32 = 2
}
