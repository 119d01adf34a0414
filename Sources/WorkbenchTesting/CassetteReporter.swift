import Foundation
import Synchronization
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Where a cassette test's findings go: Swift Testing issues when a Swift Testing test runs,
/// else XCTest failures (as swift-snapshot-testing decides).
enum CassetteReporter {
    /// A failure of the test at `location` (the test's own, or the `withCassette` call's).
    static func fail(_ message: String, at location: SourceLocation, file: StaticString, line: UInt) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        } else {
            #if canImport(XCTest)
                XCTFail(message, file: file, line: line)
            #else
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            #endif
        }
    }

    /// A note that does not fail the test (what was recorded): a warning issue under Swift Testing
    /// when the run shows warnings (``warningsShown``), else a line on standard error (XCTest, and
    /// a Swift Testing run whose events go to an event stream, where warnings are dropped).
    static func note(_ message: String, at location: SourceLocation) {
        if Test.current != nil && warningsShown != false {
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
        } else if let noteWriter {
            noteWriter(location, message)
        } else {
            FileHandle.standardError.write(Data("\(location): warning: \(message)\n".utf8))
        }
    }

    /// Whether a warning issue reaches the run's output, once known for the cassette run in hand
    /// (``withWarningsKnown(_:)``); nil before. Swift Testing drops issues of warning severity when
    /// its events go to an event stream (`swift test --event-stream-output-path`, as editors run
    /// tests): no issue handler sees them there, and the notes would be lost.
    @TaskLocal static var warningsShown: Bool?

    /// Where ``note(_:at:)`` writes when it is not a warning issue: nil for a line on standard
    /// error, `<location>: warning: <message>` (the tests of this module take the notes here).
    @TaskLocal static var noteWriter: (@Sendable (SourceLocation, String) -> Void)?

    /// Runs `body` with ``warningsShown`` known: as it is when set already, else found out first.
    static func withWarningsKnown<T>(_ body: () async throws -> T) async rethrows -> T {
        if warningsShown != nil { return try await body() }
        let shown = await warningsReachTheRun()
        return try await $warningsShown.withValue(shown) { try await body() }
    }

    /// Records a warning inside an issue handler that takes it out again: the handler sees it, and
    /// nothing shows it, when the run delivers warnings; where the run drops them, nothing sees it.
    /// False outside a Swift Testing test.
    static func warningsReachTheRun() async -> Bool {
        guard let test = Test.current else { return false }
        let seen = Mutex(false)
        let probe = "mpin-workbench: does this run show warnings?"
        try? await IssueHandlingTrait.compactMapIssues { issue in
            guard issue.severity == .warning, issue.comments.contains(where: { $0.rawValue == probe }) else {
                return issue
            }
            seen.withLock { $0 = true }
            return nil
        }.provideScope(for: test, testCase: Test.Case.current) {
            Issue.record(Comment(rawValue: probe), severity: .warning)
        }
        return seen.withLock { $0 }
    }

    /// Reports what a run found, then throws what the test threw while recording.
    static func report(_ outcome: CassetteRunner.Outcome, at location: SourceLocation, file: StaticString, line: UInt)
        throws
    {
        if let failure = outcome.failure { fail(failure, at: location, file: file, line: line) }
        if let consequence = outcome.consequence { fail(consequence, at: location, file: file, line: line) }
        if let notice = outcome.notice { note(notice, at: location) }
        if let thrown = outcome.thrown { throw thrown }
    }
}
