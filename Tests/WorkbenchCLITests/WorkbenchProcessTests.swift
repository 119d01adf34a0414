import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The children the tests start see every signal (`WorkbenchProcess.launch`): the threads tests
/// run on block nearly all of them, and Foundation's `Process` passes the starting thread's mask
/// on, so a documented `timeout 120 mpin-workbench serve &` stopped by `kill $!` used to run its
/// whole 120 s and hold the docs test that long.
@Suite struct WorkbenchProcessTests {
    /// Whether the calling thread blocks SIGTERM: what makes the tests below able to fail.
    static func callerBlocksTerm() -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, SIGTERM) == 1
    }

    /// The mask of the shell's first background child, which the shell forks with the mask it was
    /// started with (a foreground command is no witness: the shell clears its mask once it has
    /// waited for one). Killed at once with SIGKILL, which no mask holds back.
    static let firstBackgroundMask = "sleep 30 & grep '^SigBlk' /proc/$!/status; kill -KILL $!"

    @Test func aChildBlocksNoSignal() async throws {
        #expect(Self.callerBlocksTerm(), "the test's thread blocks SIGTERM; else this test proves nothing")
        let run = try WorkbenchProcess.run(shell: Self.firstBackgroundMask)
        #expect(run.stdout == "SigBlk:\t0000000000000000\n", "\(run)")
        let elsewhere = try await WorkbenchProcess.runWaitingElsewhere(shell: Self.firstBackgroundMask)
        #expect(elsewhere.stdout == "SigBlk:\t0000000000000000\n", "\(elsewhere)")
    }

    @Test func aBackgroundChildStopsWhenKilled() async throws {
        // `timeout` waits with the mask it was given: with SIGTERM blocked, `kill $!` did nothing
        // and `wait` waited the 100 s. The kill comes once the child under `timeout` runs and
        // `timeout` itself sleeps waiting for it: the child may run first after the fork, and a
        // `timeout` that has not yet noted whom it started exits on SIGTERM and leaves the child
        // running (a loaded machine did that; the test then waited out the child's 100 s).
        let folder = try TemporaryDirectory.make("workbench-process")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try await WorkbenchProcess.runWaitingElsewhere(
            shell: "timeout 100 sh -c 'echo > started; exec sleep 100' & "
                + "for i in $(seq 600); do [ -e started ] && [ \"$(cut -d' ' -f3 /proc/$!/stat)\" = S ] && break; "
                + "sleep 0.1; done; "
                + "kill $!; wait $!; echo \"status $?\"",
            in: folder, seconds: 90)
        #expect(run.exited, "\(run)")
        #expect(run.stdout == "status 143\n", "\(run)")
    }
}
