import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `mpin-workbench` executable as a child process, for the end-to-end tests of the
/// command line: exit status, both output streams (read at once, so that neither pipe fills up and
/// stalls it) and whether it ended by itself within its time limit.
package enum WorkbenchProcess {
    /// What one run gave.
    package struct Run: CustomStringConvertible {
        package var status: Int32
        /// Whether it ended by itself: not killed by a signal, not stopped at the time limit.
        package var exited: Bool
        package var stdout: String
        package var stderr: String

        package init(status: Int32, exited: Bool, stdout: String, stderr: String) {
            self.status = status
            self.exited = exited
            self.stdout = stdout
            self.stderr = stderr
        }

        package var description: String {
            "status \(status)\(exited ? "" : " (did not exit by itself)"), stdout: \(stdout), stderr: \(stderr)"
        }
    }

    /// The `mpin-workbench` executable next to the test binary, when it was built.
    package static let path: String? = {
        let directories = [Bundle.main.executablePath, CommandLine.arguments.first].compactMap { $0 }
            .map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        return directories.map { $0.appendingPathComponent("mpin-workbench").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs the executable with `arguments`, or `/bin/sh -c shell` with `$WORKBENCH` set to the
    /// executable, in `directory` (the repository root by default), with `input` on standard input
    /// (else /dev/null). After `seconds` it is stopped, and `exited` is false.
    package static func run(
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
        try launch(process)
        let box = OutputBox()
        let group = DispatchGroup()
        for (pipe, isError) in [(out, false), (err, true)] {
            group.enter()
            // Each reader on a thread of its own, not Dispatch's pool: under the whole suite's load
            // the pool's threads can all be taken, and a reader that had not run when the bounded
            // wait below ended lost the child's output (a conform run's exit 1 with an empty stdout).
            Thread.detachNewThread {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile(), error: isError)
                group.leave()
            }
        }
        if let input {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        // The child's end is read with waitid (`ChildExit`), not Foundation's `isRunning`, which a
        // busy Dispatch pool updated up to 35 s late.
        let (ending, timedOut) = ChildExit.end(process, within: seconds)
        guard let ending else {
            return Run(
                status: -1, exited: false, stdout: String(decoding: box.stdout, as: UTF8.self),
                stderr: "did not end within \(Int(seconds)) s and 60 s after SIGTERM "
                    + String(decoding: box.stderr, as: UTF8.self))
        }
        // A child it left behind (a server started with `&` and never stopped) may hold the pipes
        // open: wait for them a bounded time only, a minute (the readers have nothing left to wait
        // for once the child and its own are gone).
        _ = group.wait(timeout: .now() + 60)
        return Run(
            status: ending.status, exited: !timedOut && ending.exited,
            stdout: String(decoding: box.stdout, as: UTF8.self), stderr: String(decoding: box.stderr, as: UTF8.self))
    }

    /// Starts `process` with no signal blocked. Foundation's `Process` hands the child the signal
    /// mask of the thread that starts it, and the threads tests run on (Swift's concurrency pool,
    /// Dispatch's workers) block nearly every signal: a shell started from one hands that mask on
    /// to what it starts in the background, which then never sees SIGTERM or SIGINT. A documented
    /// `timeout 120 mpin-workbench serve &` stopped with `kill $!` ran its full 120 s that way
    /// (`timeout` waits with the mask it was given). The mask is cleared for the start only; the
    /// thread's own is put back after it.
    package static func launch(_ process: Process) throws {
        #if canImport(Glibc)
            var none = sigset_t()
            var saved = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, &saved)
            defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        #endif
        try process.run()
    }

    /// `run`, waited for on a thread of its own: an async test that runs the executable does not
    /// hold one of Swift's few cooperative threads (as many as the machine has cores) while the
    /// child runs, which would hold up every other test in the process meanwhile.
    package static func runWaitingElsewhere(
        _ arguments: [String] = [], shell: String? = nil, input: Data? = nil, in directory: String? = nil,
        seconds: Double = 120
    ) async throws -> Run {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Run, any Error>, Never>) in
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result {
                        try run(arguments, shell: shell, input: input, in: directory, seconds: seconds)
                    })
            }
        }
        return try result.get()
    }

    /// The executable was not built.
    package struct Missing: Error, CustomStringConvertible {
        package init() {}
        package var description: String { "mpin-workbench was not found next to the test binary" }
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
