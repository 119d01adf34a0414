import Foundation
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

    /// A note that does not fail the test (what was recorded): a warning issue under Swift Testing,
    /// a line on standard error under XCTest.
    static func note(_ message: String, at location: SourceLocation) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
        } else {
            FileHandle.standardError.write(Data("\(location): \(message)\n".utf8))
        }
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
