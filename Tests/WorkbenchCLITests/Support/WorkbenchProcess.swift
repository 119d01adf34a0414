import Foundation
import Synchronization
import TestSupport

/// Runs the built `mpin-workbench` executable as a child process, for the end-to-end tests of the
/// command line: exit status, both output streams (read at once, so that neither pipe fills up and
/// stalls it) and whether it ended by itself within its time limit.
enum WorkbenchProcess {
    /// What one run gave.
    struct Run: CustomStringConvertible {
        var status: Int32
        /// Whether it ended by itself: not killed by a signal, not stopped at the time limit.
        var exited: Bool
        var stdout: String
        var stderr: String

        var description: String {
            "status \(status)\(exited ? "" : " (did not exit by itself)"), stdout: \(stdout), stderr: \(stderr)"
        }
    }

    /// The `mpin-workbench` executable next to the test binary, when it was built.
    static let path: String? = {
        let directories = [Bundle.main.executablePath, CommandLine.arguments.first].compactMap { $0 }
            .map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        return directories.map { $0.appendingPathComponent("mpin-workbench").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs the executable with `arguments`, or `/bin/sh -c shell` with `$WORKBENCH` set to the
    /// executable, in `directory` (the repository root by default), with `input` on standard input
    /// (else /dev/null). After `seconds` it is stopped, and `exited` is false.
    static func run(
        _ arguments: [String] = [], shell: String? = nil, input: Data? = nil, in directory: String? = nil,
        seconds: Double = 120
    ) throws -> Run {
        guard let executable = path else { throw Missing() }
        let process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shell]
            process.environment = ProcessInfo.processInfo.environment.merging(["WORKBENCH": executable]) { $1 }
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? RepoPaths.root)
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        let box = OutputBox()
        let group = DispatchGroup()
        for (pipe, isError) in [(out, false), (err, true)] {
            group.enter()
            DispatchQueue.global().async {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile(), error: isError)
                group.leave()
            }
        }
        if let input {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let timedOut = process.isRunning
        if timedOut { process.terminate() }
        process.waitUntilExit()
        // A child it left behind may hold the pipes open: wait for them a bounded time only.
        _ = group.wait(timeout: .now() + 10)
        return Run(
            status: process.terminationStatus, exited: !timedOut && process.terminationReason == .exit,
            stdout: String(decoding: box.stdout, as: UTF8.self), stderr: String(decoding: box.stderr, as: UTF8.self))
    }

    /// The executable was not built.
    struct Missing: Error, CustomStringConvertible {
        var description: String { "mpin-workbench was not found next to the test binary" }
    }

    /// Both streams, filled from two threads.
    private final class OutputBox: Sendable {
        private let streams = Mutex((stdout: Data(), stderr: Data()))
        var stdout: Data { streams.withLock { $0.stdout } }
        var stderr: Data { streams.withLock { $0.stderr } }
        func set(_ data: Data, error: Bool) {
            streams.withLock { if error { $0.stderr = data } else { $0.stdout = data } }
        }
    }
}
