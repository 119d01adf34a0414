import Foundation
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
            guard line.hasPrefix("reference backend listening on "), let origin = line.range(of: "http://127.0.0.1:") else { return nil }
            return Int(line[origin.upperBound...])
        }
        defer { _ = serving.interrupt() }
        guard let port else {
            Issue.record("no listening address")
            return nil
        }
        return try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:\(port)"] + arguments, seconds: 300)
    }

    @Test func theDefaultProfileExitsZeroAndWritesTheReports() throws {
        let directory = try TemporaryDirectory.make("conform")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let run = try conform(profile: "default", ["--cases", "pass2.*,settings.*", "--out", directory + "/cassettes",
                                                          "--junit", directory + "/r.xml",
                                                          "--html", directory + "/r.html", "--rate", "200"]) else { return }
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("no MUST case failed"))
        guard let json = try conform(profile: "default", ["--cases", "settings.*", "--json"]) else { return }
        #expect(json.status == 0 && json.stdout.hasPrefix("{"), "\(json)")
        for file in ["r.xml", "r.html", "cassettes/pass2.single-use.json", "cassettes/settings.reachable.json"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file) missing")
        }
        let cassette = try WorkbenchProcess.run(["cassette", "check", directory + "/cassettes/pass2.single-use.json"], seconds: 60)
        #expect(cassette.status == 0, "\(cassette)")
    }

    @Test func aFailedMustCaseExitsOne() throws {
        guard let run = try conform(profile: "milagro-oss", ["--cases", "pass2.single-use"]) else { return }
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("pass2.single-use: the replayed pass 2 got a second authOTT and it logged in"))
    }

    @Test func usageErrorsAndAnUnreachableBackendExitTwo() throws {
        let empty = try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:9", "--cases", ","], seconds: 60)
        #expect(empty.status == 2, "\(empty)")
        let none = try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:9", "--cases", "no-such.*"], seconds: 60)
        #expect(none.status == 2 && none.stderr.contains("selects no case"), "\(none)")
        let unreachable = try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:9", "--cases", "settings.*"], seconds: 60)
        #expect(unreachable.status == 2 && unreachable.stderr.contains("cannot be reached"), "\(unreachable)")
        let rate = try WorkbenchProcess.run(["conform", "--backend", "http://127.0.0.1:9", "--rate", "0"], seconds: 60)
        #expect(rate.status == 2, "\(rate)")
    }
}
