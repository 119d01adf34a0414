import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended, read with `waitid(WNOWAIT)` (which leaves the child for Foundation
/// to reap) rather than from Foundation alone: its `Process` learns of an exit on a Dispatch queue,
/// and under the whole suite's load that queue's threads can all be busy; a child that had exited
/// was still `isRunning` for 35 s (the first interop probe's registration step). Once Foundation
/// has reaped the child, waitid has nothing to read, and Foundation's own record is taken.
package enum ChildExit {
    /// The exit status and true when the child exited by itself; the signal number and false when
    /// a signal ended it.
    package typealias Ending = (status: Int32, exited: Bool)

    /// How `process` ended, or nil while it runs.
    package static func poll(_ process: Process) -> Ending? {
        #if canImport(Glibc)
            let pid = process.processIdentifier
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
                guard info._sifields._sigchld.si_pid == pid else { return nil }
                return (info._sifields._sigchld.si_status, info.si_code == Int32(CLD_EXITED))
            }
            guard errno == ECHILD else { return nil }
        #endif
        // Reaped already (or no waitid here): Foundation's record, once it has made it.
        if process.isRunning { return nil }
        return (process.terminationStatus, process.terminationReason == .exit)
    }

    /// How `process` ended, waited for `seconds`; when it still runs then, it is sent SIGTERM and
    /// waited for a minute more (far more than a child takes to end on a busy machine), and
    /// `timedOut` is true. `ending` is nil when it did not end even then.
    package static func end(_ process: Process, within seconds: Double) -> (ending: Ending?, timedOut: Bool) {
        if let ending = wait(process, until: Date().addingTimeInterval(seconds)) { return (ending, false) }
        process.terminate()
        return (wait(process, until: Date().addingTimeInterval(60)), true)
    }

    /// How `process` ended, waiting until `deadline` at most (looking every 10 ms); nil if it still runs.
    package static func wait(_ process: Process, until deadline: Date) -> Ending? {
        while true {
            if let ending = poll(process) { return ending }
            if Date() >= deadline { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
