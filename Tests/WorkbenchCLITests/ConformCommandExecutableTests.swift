import Foundation
import ReferenceBackend
import Synchronization
import TestSupport
import Testing

/// `mpin-workbench conform` end to end (issue 28): exit 0 when no MUST case fails, 1 when one
/// does (the `milagro-oss` profile's replayed pass 2), 2 on a usage error or an unreachable
/// backend; the reports and cassettes it writes.
@Suite("conform command", .enabled(if: WorkbenchProcess.path != nil))
struct ConformCommandExecutableTests {
    /// Runs `serve` with `profile`, then `conform` against it with `arguments`.
    private func conform(profile: String, _ arguments: [String]) throws -> WorkbenchProcess.Run? {
        let serving = try ServingProcess(["serve", "--port", "0", "--profile", profile])
        let port = serving.waitForOutput(within: 120) { line -> Int? in
            guard line.hasPrefix("reference backend listening on "), let origin = line.range(of: "http://127.0.0.1:")
            else { return nil }
            return Int(line[origin.upperBound...])
        }
        defer { _ = serving.interrupt() }
        guard let port else {
            Issue.record("no listening address")
            return nil
        }
        // Under milagro-oss D-TA 2 has an origin of its own, as on the real server: conform follows
        // the settings there only when told, as it would against the real server.
        var origins: [String] = []
        if profile == "milagro-oss" {
            let dta2 = serving.waitForOutput(within: 30) { line -> String? in
                guard let at = line.range(of: "D-TA 2 (its own origin, as the open-source deployment runs it): ") else {
                    return nil
                }
                return String(line[at.upperBound...])
            }
            origins = ["--allow-origin", try #require(dta2)]
        }
        return try WorkbenchProcess.run(
            ["conform", "--backend", "http://127.0.0.1:\(port)"] + origins + arguments, seconds: 300)
    }

    @Test func theDefaultProfileExitsZeroAndWritesTheReports() throws {
        let directory = try TemporaryDirectory.make("conform")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard
            let run = try conform(
                profile: "default",
                [
                    "--cases", "pass2.*,settings.*", "--out", directory + "/cassettes",
                    "--junit", directory + "/r.xml",
                    "--html", directory + "/r.html", "--rate", "200",
                ])
        else { return }
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("no MUST case failed"))
        guard let json = try conform(profile: "default", ["--cases", "settings.*", "--json"]) else { return }
        #expect(json.status == 0 && json.stdout.hasPrefix("{"), "\(json)")
        for file in ["r.xml", "r.html", "cassettes/pass2.single-use.json", "cassettes/settings.reachable.json"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file) missing")
        }
        let cassette = try WorkbenchProcess.run(
            ["cassette", "check", directory + "/cassettes/pass2.single-use.json"], seconds: 60)
        #expect(cassette.status == 0, "\(cassette)")
    }

    @Test func aFailedMustCaseExitsOne() throws {
        guard let run = try conform(profile: "milagro-oss", ["--cases", "pass2.single-use"]) else { return }
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stdout.contains("pass2.single-use: the replayed pass 2 got a second authOTT and it logged in"),
            "\(run)")
    }

    @Test func usageErrorsAndAnUnreachableBackendExitTwo() throws {
        let empty = try WorkbenchProcess.run(
            ["conform", "--backend", "http://127.0.0.1:9", "--cases", ","], seconds: 60)
        #expect(empty.status == 2, "\(empty)")
        let none = try WorkbenchProcess.run(
            ["conform", "--backend", "http://127.0.0.1:9", "--cases", "no-such.*"], seconds: 60)
        #expect(none.status == 2 && none.stderr.contains("selects no case"), "\(none)")
        let unreachable = try WorkbenchProcess.run(
            ["conform", "--backend", "http://127.0.0.1:9", "--cases", "settings.*"], seconds: 60)
        #expect(unreachable.status == 2 && unreachable.stderr.contains("cannot be reached"), "\(unreachable)")
        let rate = try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:9", "--rate", "0"], seconds: 60)
        #expect(rate.status == 2, "\(rate)")
    }

    /// The cassettes of `--out` are shareable by default (`cassette audit` finds no secret in
    /// clear), and `--redact none` keeps the secrets (issue 33, point 6).
    @Test func outCassettesAreRedactedByDefault() throws {
        let directory = try TemporaryDirectory.make("conform-redact")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard
            let run = try conform(
                profile: "default", ["--cases", "pass2.single-use", "--out", directory + "/redacted"]),
            let clear = try conform(
                profile: "default", ["--cases", "pass2.single-use", "--out", directory + "/clear", "--redact", "none"])
        else { return }
        #expect(run.status == 0 && clear.status == 0, "\(run) \(clear)")
        let redacted = try WorkbenchProcess.run(
            ["cassette", "audit", directory + "/redacted/pass2.single-use.json"], seconds: 60)
        #expect(redacted.status == 0, "\(redacted)")
        let inClear = try WorkbenchProcess.run(
            ["cassette", "audit", directory + "/clear/pass2.single-use.json"], seconds: 60)
        #expect(inClear.status == 1, "\(inClear)")
    }

    /// A backend that answers its client settings and holds every other answer: a short
    /// `--deadline` ends the run with exit status 2 and says so (the outcome, not the time).
    @Test func aBackendThatHoldsItsAnswersMeetsTheDeadline() async throws {
        final class Hold: Sendable { let released = Mutex(false) }
        let hold = Hold()
        let server = try await PlainHTTPServer.start(port: 0) { request in
            if request.target.hasSuffix("/clientSettings") {
                return .init(
                    status: 200, headers: [.init("Content-Type", "application/json")],
                    body: Array(#"{"registerURL": "/rps/user"}"#.utf8))
            }
            for _ in 0..<1_200 where !hold.released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(50)) }
            return .init(status: 503)
        }
        let url = server.baseURL
        let run = try await ProxyCommandTests.offPool {
            try WorkbenchProcess.run(["conform", "--backend", url, "--deadline", "2", "--timeout", "30"], seconds: 120)
        }
        hold.released.withLock { $0 = true }
        await server.stop()
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("could not grade") && run.stderr.contains("deadline"), "\(run.stderr)")
        #expect(run.stdout.contains("not graded:"), "\(run.stdout)")
    }

    /// `--max-body` reaches the transport and the suite: the client settings (more than 64 bytes)
    /// are cut off and every case that reads them fails, saying so.
    @Test func anAnswerOverMaxBodyFailsItsCases() throws {
        guard let run = try conform(profile: "default", ["--cases", "settings.*", "--max-body", "64"]) else { return }
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stdout.contains("settings.reachable: the answer to GET ")
                && run.stdout.contains("is more than 64 bytes, the most a run takes (--max-body)"),
            "\(run.stdout)")
    }

    @Test(
        "the limits' options are range-checked",
        arguments: [
            (["--deadline", "0"], "must be a number more than 0 and at most 86400 seconds"),
            (["--timeout", "-1"], "must be a number more than 0 and at most 3600 seconds"),
            (["--max-body", "0"], "must be an integer from 1 to 16777216"),
            (["--allow-origin", "http://127.0.0.1:8001/dta2"], "--allow-origin is an origin"),
            (["--redact", "none", "pin"], "--redact none redacts nothing"),
        ])
    func limitOptionsAreChecked(_ arguments: [String], _ message: String) throws {
        let run = try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:9"] + arguments, seconds: 60)
        #expect(run.status == 2 && run.stderr.contains(message), "\(run)")
    }
}
