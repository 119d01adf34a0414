import FlowRecording
import Foundation
import MPinSDK
import Synchronization
import TestSupport
import Testing

@testable import WorkbenchTesting

/// A divergence is the first and loudest failure of a cassette test (issue 37, point 3): the
/// SDK's call ends in `REPLAY_DIVERGED`, not `NETWORK_ERROR`; the report comes before the test's
/// own failures, at the first of them, with the changed value on its first lines; those failures
/// are marked as its consequences; and the flow the re-run produced is written beside the cassette
/// (point 7), where record mode `failed` records the cassette again instead.
@Suite struct DivergenceWatchTests {
    /// The line of the expectation that saw the divergence.
    final class Noted: Sendable {
        private let value = Mutex(0)
        func set(_ line: Int) { value.withLock { $0 = line } }
        var line: Int { value.withLock { $0 } }
    }

    /// The README's first cassette test: a wrong PIN refused, then a login. Returns the line of
    /// its expectation on the wrong PIN's status.
    @discardableResult
    private static func wrongPINThenLogin(_ session: CassetteSession, noting line: Noted? = nil) async throws -> Int {
        let sdk = session.makeClient()
        session.beginStep("register")
        try await sdk.initialize(configuration: ["backend": session.backendURL])
        let user = try await sdk.makeNewUser(id: "alice@example.com", deviceName: "Phone")
        try await sdk.startRegistration(user)
        try await sdk.confirmRegistration(user)
        try await sdk.finishRegistration(user, pin: "1234")
        session.beginStep("wrong PIN")
        try await sdk.startAuthentication(user)
        let expectation = #line + 5
        do {
            _ = try await sdk.finishAuthentication(user, pin: "9999")
            Issue.record("a wrong PIN logged in")
        } catch {
            line?.set(#line + 1)
            #expect(error.status.code == .incorrectPIN)
        }
        session.beginStep("log in")
        try await sdk.startAuthentication(user)
        #expect(try await sdk.finishAuthentication(user, pin: "1234").contains("alice@example.com"))
        return expectation
    }

    /// Records the flow into `folder`, then changes the first random draw of the wrong-PIN step
    /// (one digit); returns the cassette's path, its recorded bytes and the changed draw's index.
    private func recordThenChangeADraw(in folder: String) async throws -> (path: String, recorded: Data, draw: Int) {
        try await withCassette("wrong-pin", record: .missing, directory: folder) { session in
            try await Self.wrongPINThenLogin(session)
        }
        let path = folder + "/wrong-pin.json"
        let recorded = try Data(contentsOf: URL(fileURLWithPath: path))
        var cassette = try CassetteFile.read(path)
        let draw = try #require(
            cassette.events.indices.first {
                guard case .random = cassette.events[$0].payload else { return false }
                return cassette.events[$0].step?.name == "wrong PIN"
            })
        guard case .random(var random) = cassette.events[draw].payload else { throw CassetteTestError("no draw") }
        let middle = random.hex.index(random.hex.startIndex, offsetBy: random.hex.count / 2)
        random.hex.replaceSubrange(middle...middle, with: random.hex[middle] == "0" ? "1" : "0")
        cassette.events[draw].payload = .random(random)
        try CassetteFile.write(cassette, to: path)
        return (path, recorded, draw)
    }

    @Test func aChangedDrawIsReportedFirstWhereTheTestNoticedIt() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, _, draw) = try await recordThenChangeADraw(in: folder)
        let line = Noted()
        let issues = try await capturingIssues {
            try await withCassette("wrong-pin", record: .never, directory: folder) { session in
                try await Self.wrongPINThenLogin(session, noting: line)
            }
        }
        let failures = issues.filter { $0.isFailure }
        try #require(failures.count >= 2, "\(issues.map { $0.text })")
        // First: the report, at the test's expectation on the wrong PIN's status.
        let report = failures[0].text
        #expect(report.hasPrefix(path + ": replay (strict) diverged at event "), "\(report)")
        #expect(report.contains("step 1 \"wrong PIN\", in the call finishAuthentication"), "\(report)")
        #expect(failures[0].line == line.line, "\(failures[0])")
        // Its first lines show the changed value: the crypto step's input x, cut around the change.
        let head = report.split(separator: "\n").prefix(3).joined(separator: "\n")
        #expect(head.contains("expected: crypto ") && head.contains("actual:   crypto "), "\(head)")
        #expect(head.contains("differs from character"), "\(head)")
        // Then the test's own expectation, which saw REPLAY_DIVERGED, marked as a consequence.
        #expect(
            failures[1].kind.hasPrefix("Expectation failed: (error.status.code → REPLAY_DIVERGED)"), "\(failures[1])")
        #expect(failures[1].text.contains("a consequence of the cassette divergence reported before it"))
        #expect(failures.dropFirst().allSatisfy { $0.text.contains("a consequence of the cassette divergence") })
        #expect(!issues.contains { $0.text.contains("NETWORK_ERROR") })
        // The produced flow, beside the cassette, differs first after the changed draw.
        let produced = try CassetteFile.read(folder + "/wrong-pin.produced.json")
        let cassette = try CassetteFile.read(path)
        let firstDifference = zip(cassette.events, produced.events).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(try #require(firstDifference).offset > draw)
        #expect(report.contains("mpin-workbench cassette diff '\(path)' '\(folder)/wrong-pin.produced.json'"))
        // A replay that passes removes it.
        try FileManager.default.removeItem(atPath: path)
        try await withCassette("wrong-pin", record: .missing, directory: folder) { session in
            try await Self.wrongPINThenLogin(session)
        }
        try await withCassette("wrong-pin", record: .never, directory: folder) { session in
            try await Self.wrongPINThenLogin(session)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/wrong-pin.produced.json"))
    }

    @Test func theSDKsCallEndsInReplayDivergedNotNetworkError() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await recordThenChangeADraw(in: folder)
        let status = Mutex<StatusCode?>(nil)
        _ = try await capturingIssues {
            try await withCassette("wrong-pin", record: .never, directory: folder) { session in
                let sdk = session.makeClient()
                try await sdk.initialize(configuration: ["backend": session.backendURL])
                let user = try await sdk.makeNewUser(id: "alice@example.com", deviceName: "Phone")
                try await sdk.startRegistration(user)
                try await sdk.confirmRegistration(user)
                try await sdk.finishRegistration(user, pin: "1234")
                try await sdk.startAuthentication(user)
                do {
                    _ = try await sdk.finishAuthentication(user, pin: "9999")
                } catch let error as MPinError {
                    status.withLock { $0 = error.status.code }
                    #expect(error.status.message.hasPrefix("not sent: the replay diverged at event"), "\(error)")
                }
            }
        }
        #expect(status.withLock { $0 } == .replayDiverged)
    }

    @Test func recordModeFailedRecordsAgainAfterADivergence() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, recorded, _) = try await recordThenChangeADraw(in: folder)
        let issues = try await capturingIssues {
            try await withCassette("wrong-pin", record: .failed, directory: folder) { session in
                try await Self.wrongPINThenLogin(session)
            }
        }
        // The replay's findings are warnings; the run recorded against the embedded backend with
        // the same seed gives back the bytes recorded first.
        #expect(issues.allSatisfy { !$0.isFailure }, "\(issues.map { $0.text })")
        #expect(issues.contains { $0.text.hasPrefix(path + ": replay (strict) diverged at event ") })
        #expect(
            issues.contains {
                $0.text.hasPrefix("cassette \"wrong-pin\": the replay diverged at event ")
                    && $0.text.contains("record mode failed, so it was recorded again: recorded \(path)")
            })
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == recorded)
        #expect(!FileManager.default.fileExists(atPath: folder + "/wrong-pin.produced.json"))
        // And a replay that passes under `failed` records nothing.
        let again = try await capturingIssues {
            try await withCassette("wrong-pin", record: .failed, directory: folder) { session in
                #expect(!session.isRecording)
                try await Self.wrongPINThenLogin(session)
            }
        }
        #expect(again.isEmpty, "\(again.map { $0.text })")
    }

    @Test func failedIsARecordModeOfTheEnvironment() throws {
        #expect(try CassetteRecordMode.fromEnvironment(["MPIN_WORKBENCH_RECORD": "failed", "CI": "1"]) == .failed)
    }
}
