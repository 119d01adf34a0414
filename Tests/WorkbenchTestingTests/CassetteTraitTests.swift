import FlowRecording
import Foundation
import MPinSDK
import ReferenceBackend
import TestSupport
import Testing
import WorkbenchTestingEmbedded

@testable import WorkbenchTesting

/// The `.cassette` trait, driven as Swift Testing drives it (`provideScope` around the test's body),
/// on cassettes in a temporary folder.
@Suite struct CassetteTraitTests {
    /// Runs `body` inside `trait`'s scope for the running test, as Swift Testing would.
    private func scoped(_ trait: CassetteTrait, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
    }

    @Test func recordsThenReplaysThroughTheCurrentSession() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trait = CassetteTrait.cassette(record: .missing, directory: folder)
        try await scoped(trait) {
            let session = try #require(CassetteSession.current)
            #expect(session.isRecording)
            #expect(session.name == "recordsThenReplaysThroughTheCurrentSession")
            try await registerAndLogIn(session)
        }
        #expect(CassetteSession.current == nil)
        let path = folder + "/recordsThenReplaysThroughTheCurrentSession.json"
        #expect(try CassetteFile.read(path).events.count > 30)
        try await scoped(.cassette(record: .never, directory: folder)) {
            let session = try #require(CassetteSession.current)
            #expect(!session.isRecording)
            try await registerAndLogIn(session)
        }
    }

    @Test func aDivergenceIsAnIssueAtTheTestsLocation() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await scoped(.cassette("flow", record: .missing, directory: folder)) {
            try await registerAndLogIn(try #require(CassetteSession.current))
        }
        let location = try #require(Test.current).sourceLocation
        try await withKnownIssue {
            try await scoped(.cassette("flow", record: .missing, directory: folder)) {
                try await registerAndLogIn(try #require(CassetteSession.current), pin: "4321")
            }
        } matching: { issue in
            issue.sourceLocation == location
                && text(of: issue).contains("\(folder)/flow.json: replay (strict) diverged at event")
        }
    }

    @Test func neverWithoutACassetteIsAnIssue() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withKnownIssue {
            try await scoped(.cassette("none", record: .never, directory: folder)) {
                Issue.record("the body ran")
            }
        } matching: { issue in
            text(of: issue).hasPrefix(
                "no cassette at \(folder)/none.json; record it with MPIN_WORKBENCH_RECORD=missing")
        }
    }

    @Test func theMFAFlavourGivesAnMFAClient() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = BackendConfiguration()
        configuration.flavour = .mfaPlatform
        try await scoped(.cassette("mfa", record: .missing, backend: .embedded(configuration), directory: folder)) {
            let session = try #require(CassetteSession.current)
            #expect(session.makeClient().options.flavour == .mfaPlatform)
        }
        #expect(try CassetteFile.read(folder + "/mfa.json").backend.flavour == "mfa-platform")
    }

    @Test(arguments: [1, 2]) func aParameterizedTestIsRefused(_ value: Int) async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = await #expect(throws: CassetteTestError.self) {
            try await scoped(.cassette(record: .missing, directory: folder)) {}
        }
        #expect(error?.message.contains("cannot serve a parameterized test") == true)
    }

    @Test func aStartTimeOutOfRangeIsRefused() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = await #expect(throws: CassetteTestError.self) {
            try await scoped(.cassette("t", record: .missing, backend: .embedded(startTime: -1), directory: folder)) {}
        }
        #expect(error?.message.contains("startTime -1 is not from 0 to 253402300799999") == true)
    }
}
