import Foundation
import TestSupport
import Testing

@testable import ClientConformance

/// A command run by the driver contract: the environment and folder it is given, its call lines,
/// and each way it can fail, each reported as a driver problem. The commands are small shell
/// scripts run as drivers (`/bin/sh -c`); the driver itself runs no shell.
@Suite struct ProcessDriverTests {
    func run(_ script: String, timeLimit: Double = 20) async throws -> (DriverRun, String) {
        let folder = try TemporaryDirectory.make("process-driver")
        // The run is over when this returns; the tests compare the folder's path, not its files.
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let invocation = DriverInvocation(
            flow: .login, backendURL: "http://127.0.0.1:9", user: "alice@example.com", pin: "4321", folder: folder,
            timeLimit: timeLimit)
        let run = await ProcessDriver(arguments: ["/bin/sh", "-c", script]).run(invocation)
        return (run, folder)
    }

    @Test func passesTheContractsEnvironmentAndFolder() async throws {
        let (run, folder) = try await run(
            #"printf '{"call": "%s", "status": "OK", "message": "%s %s %s"}\n' "$MPIN_FLOW" "$MPIN_USER" "$MPIN_PIN" "$(pwd)""#
        )
        #expect(run.problem == nil)
        #expect(run.calls.first?.name == "login")
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        #expect(run.calls.first?.message == "alice@example.com 4321 \(resolved)")
        #expect(run.peakMemoryBytes.map { $0 > 0 } == true)
    }

    /// Given an inherited environment rather than a `setenv` of this process's: other tests start
    /// processes meanwhile, and Foundation's `Process.run` crashed copying an environment that a
    /// `setenv` changed under it.
    @Test func leavesOutTheSuitesOwnMPinVariables() {
        let environment = ChildProcess.environment(
            with: [("MPIN_FLOW", "login"), ("PATH", "/given")],
            inherited: ["HOME=/root", "MPIN_ACCESS_NUMBER=leaked", "PATH=/usr/bin", "MPIN_FLOW=old", "XMPIN_KEPT=1"])
        #expect(environment == ["HOME=/root", "XMPIN_KEPT=1", "MPIN_FLOW=login", "PATH=/given"])
    }

    @Test func exitStatusThreeIsNoSuchFlow() async throws {
        let (run, _) = try await run("exit 3")
        #expect(run.unimplemented)
        #expect(run.problem == nil)
    }

    @Test func otherExitStatusesAreDriverProblems() async throws {
        let (run, _) = try await run(#"printf '{"call": "c", "status": "OK"}\n'; echo boom >&2; exit 1"#)
        #expect(run.problem == .exitStatus(1))
        #expect(run.standardError.contains("boom"))
        #expect(run.description.contains("boom"))
    }

    @Test func aSignalIsADriverProblem() async throws {
        let (run, _) = try await run("kill -9 $$")
        #expect(run.problem == .signal(9))
    }

    @Test func otherOutputIsADriverProblem() async throws {
        let (run, _) = try await run("echo 'starting the client'")
        guard case .badLine(1, "starting the client", _)? = run.problem else {
            Issue.record("got \(String(describing: run.problem))")
            return
        }
    }

    @Test func theTimeLimitStopsIt() async throws {
        let (run, _) = try await run("sleep 30", timeLimit: 0.5)
        #expect(run.problem == .timedOut(0.5))
    }

    @Test func whatItLeftBehindDoesNotHoldTheRun() async throws {
        // A child that keeps standard output open after the driver exits: the process group is
        // killed once the driver has exited, so the run ends with the driver's output.
        let (run, _) = try await run(#"sleep 30 & printf '{"call": "c", "status": "OK"}\n'"#)
        #expect(run.problem == nil)
        #expect(run.calls.count == 1)
    }

    @Test func outputIsBounded() async throws {
        let (run, _) = try await run("yes '{}' | head -c 3000000")
        #expect(run.problem == .outputTooLarge(DriverLimits.standardOutput))
    }

    @Test func aMissingCommandIsNamed() async throws {
        let driver = ProcessDriver(arguments: ["/nonexistent/driver"])
        #expect(driver.problem()?.contains("/nonexistent/driver") == true)
        #expect(ProcessDriver(arguments: ["no-such-driver-command-35"]).problem()?.contains("PATH") == true)
        #expect(ProcessDriver(arguments: ["sh"]).problem() == nil)
        let folder = try TemporaryDirectory.make("process-driver")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await driver.run(
            DriverInvocation(flow: .register, backendURL: "", user: "", pin: "", folder: folder, timeLimit: 5))
        guard case .couldNotStart? = run.problem else {
            Issue.record("got \(String(describing: run.problem))")
            return
        }
    }

    @Test func namesItsCommandAsAShellWould() {
        #expect(
            ProcessDriver(arguments: ["node", "driver.js", "a b", "it's"]).name == #"node driver.js 'a b' 'it'\''s'"#)
    }
}
