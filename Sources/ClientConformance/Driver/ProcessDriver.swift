import Foundation

/// A client run as a command (`conform --client -- COMMAND [ARG…]`), by the driver contract
/// (docs/conformance.md, "The driver contract"): run without a shell in the case's folder, with
/// the contract's environment over the suite's own, standard input from `/dev/null`; its standard
/// output is read up to `DriverLimits.standardOutput` bytes, one call line each; it must exit 0
/// (3: the client has no such flow) within the run's time limit. Anything else is a driver error.
public struct ProcessDriver: ClientDriver {
    public let arguments: [String]

    /// - Parameter arguments: the command and its arguments (at least the command). The command
    ///   runs in each case's folder, so an argument that is a relative path to a file that exists
    ///   from the current folder (`Examples/ClientDriver/mpin_driver.py`) is made absolute first.
    public init(arguments: [String]) {
        precondition(!arguments.isEmpty, "a process driver needs a command")
        self.arguments = arguments.map(Self.absolute)
    }

    /// `argument` made absolute when it is a relative path, with a `/`, to something that exists.
    static func absolute(_ argument: String) -> String {
        guard argument.contains("/"), !argument.hasPrefix("/"), !argument.hasPrefix("-"),
            FileManager.default.fileExists(atPath: argument)
        else { return argument }
        return FileManager.default.currentDirectoryPath + "/" + argument
    }

    public var name: String { arguments.map(Self.quoted).joined(separator: " ") }

    public func problem() -> String? { ChildProcess.problem(arguments[0]) }

    public func run(_ invocation: DriverInvocation) async -> DriverRun {
        let started = ContinuousClock.now
        let process = ChildProcess(
            arguments: arguments, environment: invocation.environment, folder: invocation.folder,
            timeLimit: invocation.timeLimit, outputLimit: DriverLimits.standardOutput,
            errorTail: DriverLimits.standardErrorTail)
        let outcome = await process.run()
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let errors = String(decoding: outcome.standardError, as: UTF8.self)
        var run = DriverRun(
            flow: invocation.flow, calls: [], seconds: seconds, peakMemoryBytes: outcome.peakMemoryBytes,
            standardError: errors)
        switch DriverOutput.calls(outcome.standardOutput) {
        case .success(let calls): run.calls = calls
        case .failure(let problem): run.problem = problem
        }
        if outcome.timedOut {
            run.problem = .timedOut(invocation.timeLimit)
        } else if outcome.outputTooLarge {
            run.problem = .outputTooLarge(DriverLimits.standardOutput)
        } else {
            switch outcome.exit {
            case .notStarted(let reason): run.problem = .couldNotStart(reason)
            case .signalled(let signal): run.problem = .signal(signal)
            case .exited(0): break
            case .exited(DriverLimits.unimplementedStatus) where run.problem == nil: run.unimplemented = true
            case .exited(let status): run.problem = .exitStatus(status)
            }
        }
        return run
    }

    /// An argument as a shell would need it to be read back (for the report only: nothing runs
    /// through a shell).
    static func quoted(_ argument: String) -> String {
        let plain =
            !argument.isEmpty
            && argument.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "-_./=:@,+%".unicodeScalars.contains(scalar)
            }
        return plain ? argument : "'" + argument.replacing("'", with: "'\\''") + "'"
    }
}
