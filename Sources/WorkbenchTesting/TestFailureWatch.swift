import Foundation
import Synchronization
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Tells whether the running test failed while a part of it ran, so that a recording is not
/// written from a failing test: under Swift Testing, a failing issue (an error, not a warning or a
/// known issue) seen by an issue handler (`IssueHandlingTrait.compactMapIssues`) around the part;
/// under XCTest, a failure reported to `XCTestObservationCenter` meanwhile (XCTest runs one test at
/// a time). Elsewhere nothing is watched and only a thrown error counts.
final class TestFailureWatch: Sendable {
    private let failures = Mutex(0)

    private init() {}

    private func mark() { failures.withLock { $0 += 1 } }

    private var failed: Bool { failures.withLock { $0 > 0 } }

    /// Runs `body`; true when the test recorded a failure during it. What `body` throws is thrown.
    static func failed(running body: () async throws -> Void) async throws -> Bool {
        let watch = TestFailureWatch()
        if let test = Test.current {
            try await handlingIssues(of: test, running: body) { issue in
                if issue.isFailure { watch.mark() }
                return issue
            }
            return watch.failed
        }
        #if canImport(XCTest)
            let observer = XCTestFailureObserver(watch: watch)
            XCTestObservationCenter.shared.addTestObserver(observer)
            defer { XCTestObservationCenter.shared.removeTestObserver(observer) }
            try await body()
            return watch.failed
        #else
            try await body()
            return false
        #endif
    }

    /// Runs `body`, a part of `test`, with `transform` seeing (and replacing) each issue the
    /// test records meanwhile (`IssueHandlingTrait.compactMapIssues`). What `body` throws is thrown.
    static func handlingIssues(
        of test: Test, running body: () async throws -> Void, _ transform: @escaping @Sendable (Issue) -> Issue?
    ) async throws {
        try await withoutActuallyEscaping(body) { escapable in
            let part = UncheckedPart(run: escapable)
            try await IssueHandlingTrait.compactMapIssues(transform)
                .provideScope(for: test, testCase: Test.Case.current) { try await part.run() }
        }
    }

    /// Carries a part of a test into an issue handler's scope, which wants a sendable closure; the
    /// scope runs it once, on the calling task, before the call that made the scope returns.
    private struct UncheckedPart: @unchecked Sendable {
        let run: () async throws -> Void
    }

    #if canImport(XCTest)
        /// Counts the failures XCTest reports while it is registered.
        private final class XCTestFailureObserver: NSObject, XCTestObservation, @unchecked Sendable {
            let watch: TestFailureWatch

            init(watch: TestFailureWatch) { self.watch = watch }

            func testCase(
                _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
                atLine lineNumber: Int
            ) {
                watch.mark()
            }
        }
    #endif
}
