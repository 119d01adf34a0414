import Foundation
import TestSupport
import Testing

/// `mpin-workbench conform --client` and `serve --fault` end to end (issue 35): the built-in SDK
/// exits 0 and writes the reports and the cassettes; a driver that fails a MUST case exits 1; one
/// that cannot be run, and every usage error, exit 2.
@Suite("conform --client command", .enabled(if: WorkbenchProcess.path != nil))
struct ConformClientExecutableTests {
    @Test func theBuiltinClientExitsZeroAndWritesTheReports() throws {
        let directory = try TemporaryDirectory.make("conform-client")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try WorkbenchProcess.run(
            [
                "conform", "--cases", "flow.register-login,secrets.*", "--client", "builtin", "--out",
                directory + "/cassettes", "--junit", directory + "/r.xml", "--html", directory + "/r.html",
            ], seconds: 300)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("against the client builtin"))
        #expect(run.stdout.contains("no MUST case failed"))
        for file in ["r.xml", "r.html", "cassettes/flow.register-login.json", "cassettes/secrets.pin.json"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file) missing")
        }
        let html = try String(contentsOfFile: directory + "/r.html", encoding: .utf8)
        #expect(html.contains("M-Pin client conformance"))
        let shown = try WorkbenchProcess.run(
            ["cassette", "show", directory + "/cassettes/flow.register-login.json"], seconds: 60)
        #expect(shown.status == 0 && shown.stdout.contains("finishAuthentication"), "\(shown)")
        let json = try WorkbenchProcess.run(
            ["conform", "--cases", "flow.register", "--json", "--client", "builtin"], seconds: 120)
        #expect(json.status == 0 && json.stdout.contains("\"client\": \"builtin"), "\(json)")
    }

    @Test func aDriverThatFailsAMustCaseExitsOne() throws {
        // A driver that says every call returned OK, whatever the backend did: the wrong PIN "logs in".
        let script = #"printf '{"call": "setBackend", "status": "OK"}\n'"#
        let run = try WorkbenchProcess.run(
            ["conform", "--cases", "flow.wrong-pin", "--client", "--", "/bin/sh", "-c", script], seconds: 120)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("flow.wrong-pin"))
    }

    @Test func aClientThatCannotRunAndUsageErrorsExitTwo() throws {
        let missing = try WorkbenchProcess.run(
            ["conform", "--cases", "flow.register", "--client", "--", "/nonexistent/driver"], seconds: 120)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("/nonexistent/driver"), "\(missing)")
        for arguments in [
            ["conform", "--client"], ["conform", "--client", "--"],
            ["conform", "--backend", "http://127.0.0.1:9", "--client", "builtin"],
            ["conform", "--backend", "http://127.0.0.1:9", "stray"],
            ["conform", "--client", "builtin", "--cases", "nothing.here"],
            ["conform", "--client", "builtin", "--profile", "nope"],
        ] {
            let run = try WorkbenchProcess.run(arguments, seconds: 60)
            #expect(run.status == 2, "\(arguments): \(run)")
        }
        let fault = try WorkbenchProcess.run(["serve", "--port", "0", "--fault", "no.such-case"], seconds: 60)
        #expect(fault.status == 2, "\(fault)")
        #expect(fault.stderr.contains("no client case no.such-case"), "\(fault)")
    }

    @Test func serveFaultServesTheCasesBackend() throws {
        let serving = try ServingProcess(["serve", "--port", "0", "--fault", "http-fault.redirect-pass2"])
        defer { _ = serving.interrupt() }
        let fault = serving.waitForOutput(within: 120) { line -> String? in
            line.hasPrefix("fault http-fault.redirect-pass2") ? String(line) : nil
        }
        #expect(fault?.contains("A 307 redirect of pass 2") == true, "\(String(describing: fault))")
    }
}
