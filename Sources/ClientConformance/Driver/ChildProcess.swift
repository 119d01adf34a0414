import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a command without a shell (`posix_spawnp`): in a folder, with an environment, its
/// standard input `/dev/null`, its standard output read up to a limit, the end of its standard
/// error kept, and a time limit. The command and every process it starts are in a process group
/// of their own, which is killed (SIGKILL) at the time limit, when the output passes its limit,
/// and once the command has exited (so that nothing it left behind holds the pipes open).
struct ChildProcess {
    /// How the run ended.
    enum Exit: Sendable, Hashable {
        case exited(Int32)
        case signalled(Int32)
        /// Not started: the system's reason.
        case notStarted(String)
    }

    struct Outcome: Sendable {
        var exit: Exit
        var standardOutput: [UInt8]
        var standardError: [UInt8]
        /// The output passed `outputLimit` (the process was killed).
        var outputTooLarge: Bool
        /// The time limit passed (the process was killed).
        var timedOut: Bool
        /// Peak resident set size, in bytes (`wait4`'s `ru_maxrss`).
        var peakMemoryBytes: Int?
    }

    let arguments: [String]
    let environment: [(name: String, value: String)]
    let folder: String
    let timeLimit: Double
    let outputLimit: Int
    let errorTail: Int

    /// `inherited` (`NAME=value` entries; by default this process's environment) with the given
    /// variables set over it and every other `MPIN_` variable left out (so that a variable of the
    /// suite's own environment cannot leak in).
    static func environment(
        with variables: [(name: String, value: String)], inherited: [String] = processEnvironment()
    ) -> [String] {
        let given = Set(variables.map(\.name))
        let kept = inherited.filter { entry in
            let name = String(entry.prefix { $0 != "=" })
            return !name.hasPrefix("MPIN_") && !given.contains(name)
        }
        return kept + variables.map { "\($0.name)=\($0.value)" }
    }

    /// This process's environment, as `NAME=value` entries.
    static func processEnvironment() -> [String] {
        var out: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            out.append(String(cString: entry))
            pointer += 1
        }
        return out
    }

    /// Runs the command and waits for it, within the time limit.
    func run() async -> Outcome {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.runBlocking()) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// The same, on the calling thread (which it blocks).
    func runBlocking() -> Outcome {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard Self.closingPipe(&outPipe) else { return failed("pipe: \(Self.reason(errno))") }
        guard Self.closingPipe(&errPipe) else {
            close(outPipe[0])
            close(outPipe[1])
            return failed("pipe: \(Self.reason(errno))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        guard let addChdir = Self.addChdir else {
            close(outPipe[0])
            close(outPipe[1])
            close(errPipe[0])
            close(errPipe[1])
            return failed("this C library has no posix_spawn_file_actions_addchdir_np (glibc 2.29 or later)")
        }
        _ = folder.withCString { addChdir(&actions, $0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = Self.environment(with: environment).map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            return failed("\(arguments[0]): \(Self.reason(spawned))")
        }
        let group = pid
        let kill = { @Sendable in _ = Glibc.kill(-group, SIGKILL) }
        // Readers on their own threads; the output reader stops the process past its limit.
        let output = PipeReader(fd: outPipe[0], limit: outputLimit, keepsTail: false) { kill() }
        let errors = PipeReader(fd: errPipe[0], limit: errorTail, keepsTail: true) {}
        output.start()
        errors.start()
        // The time limit: a timer thread that kills the group unless the process ended first.
        let ended = Flag()
        let limit = timeLimit
        let timedOut = Flag()
        let timer = Thread {
            let step = 0.05
            var waited = 0.0
            while waited < limit {
                if ended.isSet { return }
                Thread.sleep(forTimeInterval: step)
                waited += step
            }
            if !ended.isSet {
                timedOut.set()
                kill()
            }
        }
        timer.start()
        // Wait for the command without reaping it, kill what it left in its group, then reap it.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        ended.set()
        _ = Glibc.kill(-group, SIGKILL)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        output.wait()
        errors.wait()
        let exit: Exit = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        return Outcome(
            exit: exit, standardOutput: output.bytes, standardError: errors.bytes,
            outputTooLarge: output.overflowed, timedOut: timedOut.isSet,
            peakMemoryBytes: Int(usage.ru_maxrss) * 1024)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), looked up at run time: the
    /// C module does not declare it.
    static let addChdir:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)
                    .self)
        }()

    /// A pipe whose two ends close on exec (the child gets only what `dup2` gives it): `pipe`,
    /// then `FD_CLOEXEC` on both (the suite spawns one process at a time).
    static func closingPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private func failed(_ reason: String) -> Outcome {
        Outcome(
            exit: .notStarted(reason), standardOutput: [], standardError: [], outputTooLarge: false, timedOut: false,
            peakMemoryBytes: nil)
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Whether `command` names a program `posix_spawnp` would find: a path with a `/` that is an
    /// executable file, or a name found on `PATH`. Nil when it would; else why not.
    static func problem(_ command: String) -> String? {
        func executable(_ path: String) -> Bool {
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
        }
        if command.contains("/") {
            return executable(command) ? nil : "\(command) is not an executable file"
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where executable("\(folder)/\(command)") { return nil }
        return "\(command) is not found on PATH"
    }
}

/// Reads a pipe to its end on a thread of its own, keeping at most `limit` bytes (the first, or
/// with `keepsTail` the last); past the limit, without `keepsTail`, it calls `overflow` once and
/// reads on, dropping what comes.
final class PipeReader: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var overflowed = false
        var done = false
    }

    let fd: Int32
    let limit: Int
    let keepsTail: Bool
    let overflow: @Sendable () -> Void
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    init(fd: Int32, limit: Int, keepsTail: Bool, overflow: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.limit = limit
        self.keepsTail = keepsTail
        self.overflow = overflow
    }

    func start() {
        let thread = Thread { self.read() }
        thread.stackSize = 1 << 18
        thread.start()
    }

    private func read() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let chunk = buffer[0..<count]
            let overflowNow = state.withLock { state -> Bool in
                if keepsTail {
                    state.bytes += chunk
                    if state.bytes.count > limit { state.bytes.removeFirst(state.bytes.count - limit) }
                    return false
                }
                guard !state.overflowed else { return false }
                if state.bytes.count + count > limit {
                    state.overflowed = true
                    return true
                }
                state.bytes += chunk
                return false
            }
            if overflowNow { overflow() }
        }
        close(fd)
        finished.signal()
    }

    /// Waits until the pipe has ended.
    func wait() { finished.wait() }

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var overflowed: Bool { state.withLock { $0.overflowed } }
}
