import ArgumentParser
import Foundation
import MilagroRecording
import Scenarios

/// The root command, `mpin-workbench`.
///
/// The executable target only calls `await WorkbenchCommand.runCommandLine()`; every subcommand lives in
/// this library so that tests can run them in-process.
public struct WorkbenchCommand: AsyncParsableCommand {
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

            Examples:
              mpin-workbench record authenticate
              mpin-workbench replay Recordings/
              mpin-workbench serve --port 8005
            """,
        version: WorkbenchVersion.current,
        subcommands: [
            RecordCommand.self, ReplayCommand.self, RunCommand.self, ProxyCommand.self, ServeCommand.self,
            ConformCommand.self, CassetteCommand.self, VectorsCommand.self, ChecksumCommand.self, BenchCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line. Old spellings are rewritten first, each with a warning
    /// (`LegacySpelling`). Every exit goes through argument-parser's `exit(withError:)`: a command's
    /// `CommandFailure` is printed as `error: <message>` with its status (2); a usage error (an
    /// unknown option, a missing argument, a value out of its range) is printed as the parser
    /// prints it, with status 2 (`ExitCode.cannotRun`), the Unix convention for usage errors and
    /// the rule of every command, where the parser's own default would be 64. Everything else
    /// (help, `--version`, a command's own `ExitCode`) is the parser's.
    public static func runCommandLine() async {
        do {
            let spelling = LegacySpelling(Array(CommandLine.arguments.dropFirst()))
            for warning in spelling.warnings { Console.error(warning + "\n") }
            if let message = SubcommandSuggestion.message(for: spelling.arguments) {
                throw CommandFailure(message)
            }
            var command = try parseAsRoot(spelling.arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            Console.failure(failure.description)
            exit(withError: failure.exitCode)
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error) + "\n")
                exit(withError: ExitCode.cannotRun)
            }
            exit(withError: error)
        }
    }

    /// Parses `arguments` (without the program's name) as `runCommandLine` does, old spellings
    /// rewritten (their warnings are `LegacySpelling`'s).
    static func parse(commandLine arguments: [String]) throws -> any ParsableCommand {
        try parseAsRoot(LegacySpelling(arguments).arguments)
    }
}
