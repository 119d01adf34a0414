import FlowRecording
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import WorkbenchTesting

/// Nothing is recorded from a failing test (issue 26, point 4): under `record: .all` a test whose
/// expectation failed, or whose body threw, keeps the cassette it had, and a note says so.
@Suite struct CassetteFailedTestTests {
    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aFailedExpectationKeepsTheOldCassetteAndSaysSo() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/kept.json"
        let test = try #require(Test.current)
        try await CassetteTrait.cassette("kept", record: .missing, directory: folder).provideScope(
            for: test, testCase: Test.Case.current
        ) {
            try await registerAndLogIn(try #require(CassetteSession.current))
        }
        let before = try bytes(path)
        // Another seed records other bytes: had it been written, the file would differ.
        let issues = try await capturingIssues {
            try await CassetteTrait.cassette("kept", record: .all, seed: "another", directory: folder)
                .provideScope(for: test, testCase: Test.Case.current) {
                    try await registerAndLogIn(try #require(CassetteSession.current))
                    Issue.record("the deliberate failure of the test")
                }
        }
        #expect(try bytes(path) == before)
        #expect(issues.contains { $0.text == "the deliberate failure of the test" && $0.isFailure })
        #expect(
            issues.contains {
                !$0.isFailure && $0.text.contains("the test failed, so nothing was recorded: \(path) is kept as it was")
            },
            "\(issues)")
    }

    @Test func aThrownErrorRecordsNothingEitherAndSaysSo() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        struct Deliberate: Error {}
        let issues = try await capturingIssues {
            await #expect(throws: Deliberate.self) {
                try await withCassette("thrown", record: .all, directory: folder) { session in
                    try await registerAndLogIn(session)
                    throw Deliberate()
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/thrown.json"))
        #expect(
            issues.contains {
                !$0.isFailure
                    && $0.text.contains(
                        "the test failed, so nothing was recorded: there was no cassette at \(folder)/thrown.json")
            },
            "\(issues)")
    }

    @Test func aPassingTestStillRecords() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let issues = try await capturingIssues {
            try await withCassette("passing", record: .all, directory: folder) { session in
                try await registerAndLogIn(session)
            }
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/passing.json"))
        #expect(issues.allSatisfy { !$0.isFailure }, "\(issues)")
    }

    /// Where the run drops warnings (Swift Testing's event stream, as editors run tests), the note
    /// goes to the note writer (a line on standard error by default) instead of a warning issue.
    @Test func aRunThatDropsWarningsGetsTheNoteAsALine() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        struct Deliberate: Error {}
        let issues = try await CassetteReporter.$warningsShown.withValue(false) {
            try await capturingIssues {
                await #expect(throws: Deliberate.self) {
                    try await withCassette("thrown", record: .all, directory: folder) { session in
                        try await registerAndLogIn(session)
                        throw Deliberate()
                    }
                }
            }
        }
        #expect(
            issues.contains {
                $0.kind == "note" && $0.text.contains("the test failed, so nothing was recorded")
            }, "\(issues)")
        #expect(!issues.contains { !$0.isFailure && $0.kind != "note" }, "no warning issue: \(issues)")
    }

    /// The probe that tells whether warnings reach the run agrees with a warning recorded in the
    /// test, whichever way the run goes, and shows nothing of its own.
    @Test func theProbeTellsWhetherWarningsReachTheRun() async throws {
        let shown = await CassetteReporter.warningsReachTheRun()
        let direct = try await capturingIssues { Issue.record("a warning of the test", severity: .warning) }
        #expect(shown == direct.contains { $0.text == "a warning of the test" && !$0.isFailure }, "\(direct)")
        let inside = Mutex<Bool?>(nil)
        let probed = try await capturingIssues {
            let value = await CassetteReporter.warningsReachTheRun()
            inside.withLock { $0 = value }
        }
        #expect(inside.withLock { $0 } == shown)
        #expect(probed.isEmpty, "the probe's own warning showed: \(probed)")
    }
}
