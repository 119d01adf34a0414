import ArgumentParser

/// Why a command could not do its work: an input that could not be read, an output that could not
/// be written, a selection that selects nothing, a backend that cannot be reached. A command throws
/// it instead of printing and exiting; the root (`WorkbenchCommand.runCommandLine`) prints it once
/// as `error: <message>` on standard error and exits with `exitCode` through argument-parser.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let exitCode: ExitCode

    /// A failure with `message`, exit status 2 (`ExitCode.cannotRun`) unless `exitCode` says otherwise.
    init(_ message: String, exitCode: ExitCode = .cannotRun) {
        self.description = message
        self.exitCode = exitCode
    }
}

extension ExitCode {
    /// Status 2, the one rule of every command: the input could not be read or the usage was wrong
    /// (a missing or unreadable file, an unknown option, a value out of range). Status 1, a check
    /// that failed, is argument-parser's `ExitCode.failure`.
    static let cannotRun = ExitCode(2)
}
