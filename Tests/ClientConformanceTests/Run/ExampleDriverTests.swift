import ClientConformance
import Conformance
import Foundation
import TestSupport
import Testing

/// The driver in another language that docs/conformance.md gives as the template
/// (`Examples/ClientDriver/mpin_driver.py`, a small M-Pin client in Python), run by the process
/// driver and graded on the cases that catch the five flaws and on the flows: it fails none.
@Suite struct ExampleDriverTests {
    static let script = RepoPaths.path("Examples/ClientDriver/mpin_driver.py")

    @Test(.enabled(if: ProcessDriver(arguments: ["python3"]).problem() == nil, "python3 is not on PATH"))
    func thePythonDriverPassesTheFlowsAndTheSecrets() async throws {
        let pattern =
            "flow.register-login,flow.wrong-pin,flow.access-number,random.*,secrets.pin,secrets.dta-share-off-curve,"
            + "http-fault.redirect-pass2,http-fault.truncated-pass1,protocol.pass1-y-zero"
        let report = try await ClientSuiteRun.report(
            ProcessDriver(arguments: [PythonInterpreter.path ?? "python3", Self.script]), cases: pattern)
        #expect(report.results.count == 10)
        #expect(ClientSuiteRun.failed(report).isEmpty, "\(ClientSuiteRun.summary(report))")
        #expect(report.results.allSatisfy { $0.verdict.kind == .pass }, "\(ClientSuiteRun.summary(report))")
        #expect(report.client?.contains("mpin_driver.py") == true)
    }

    @Test func aDriverThatCannotRunMakesTheRunUngradable() async throws {
        let report = try await ClientSuiteRun.report(
            ProcessDriver(arguments: ["/bin/sh", "-c", "echo not a call line"]), cases: "flow.register,flow.login")
        #expect(report.couldNotGrade?.contains("could not be run") == true)
        #expect(report.results.allSatisfy { $0.verdict.reason.hasPrefix("driver error") })
        let missing = try await ClientSuiteRun.report(
            ProcessDriver(arguments: ["/nonexistent/driver"]), cases: "flow.*")
        #expect(missing.results.isEmpty)
        #expect(missing.couldNotGrade?.contains("/nonexistent/driver") == true)
    }
}
