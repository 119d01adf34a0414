import FlowRecording
import Synchronization
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Puts a replay's divergence first among a cassette test's failures, where the test noticed it,
/// and marks the failures that follow from it as its consequences.
///
/// Once the re-run diverges, the replay answers nothing more (every request is refused with
/// `REPLAY_DIVERGED`), so whatever the test checks next fails too. Those failures are not the
/// cause, and without this watch the test's own `Expectation failed` came first and the report
/// only at the end, at the trait's line.
///
/// * Under Swift Testing the first failing issue the test records after the divergence (its
///   `#expect` on the call's result, typically on the call's line) brings the report out first, at
///   that issue's source location; that issue and every later failing one get a comment naming
///   the divergence they follow from. A divergence the test records nothing after is reported
///   when the test ends, at the test's (or the `withCassette` call's) location.
/// * Under XCTest, which cannot amend a failure, the report is an `XCTFail` at the moment the
///   re-run diverges, at the `withCassette` call, before the test can fail on the result.
///
/// With `demoted` (record mode `failed`, which records the cassette again after a failing
/// replay), the report and its consequences are warnings under Swift Testing: the re-recorded run
/// decides whether the test passes. XCTest failures stay failures.
final class DivergenceWatch: Sendable {
    private let replayer: Replayer
    private let report: @Sendable (ReplayError) -> String
    private let place: ReportPlace
    private let demoted: Bool
    private let reported = Mutex(false)

    /// Where a report goes when no issue of the test places it: the test's or the call's location.
    struct ReportPlace: Sendable {
        var location: SourceLocation
        var file: StaticString
        var line: UInt
    }

    init(replayer: Replayer, place: ReportPlace, demoted: Bool, report: @escaping @Sendable (ReplayError) -> String) {
        self.replayer = replayer
        self.place = place
        self.demoted = demoted
        self.report = report
    }

    /// Whether the divergence was reported while the test ran.
    var reportedDuringRun: Bool { reported.withLock { $0 } }

    /// The comment that marks a failure as following from the divergence.
    static func consequence(of divergence: ReplayError) -> String {
        "a consequence of the cassette divergence reported before it (\(divergence.report.headline))"
    }

    /// True the first time only.
    private func claim() -> Bool {
        reported.withLock { done in
            defer { done = true }
            return !done
        }
    }

    /// Runs `body` with the watch on; what `body` throws is thrown.
    func run(_ body: () async throws -> Void) async throws {
        if let test = Test.current {
            try await TestFailureWatch.handlingIssues(of: test, running: body) { issue in self.handle(issue) }
            return
        }
        replayer.onDivergence { [self] divergence in
            guard claim() else { return }
            if demoted {
                CassetteReporter.note(report(divergence), at: place.location)
            } else {
                CassetteReporter.fail(report(divergence), at: place.location, file: place.file, line: place.line)
            }
        }
        try await body()
    }

    /// A Swift Testing issue of the test: the divergence's report goes out before the first
    /// failing one after it, and each such failure is marked as its consequence.
    private func handle(_ issue: Issue) -> Issue? {
        guard issue.isFailure, let divergence = replayer.failure else { return issue }
        let location = issue.sourceLocation ?? place.location
        if claim() {
            if demoted {
                CassetteReporter.note(report(divergence), at: location)
            } else {
                Issue.record(Comment(rawValue: report(divergence)), sourceLocation: location)
            }
        }
        var marked = issue
        marked.comments.append(Comment(rawValue: Self.consequence(of: divergence)))
        guard demoted else { return marked }
        // A warning now; where the run drops warnings, the consequence is a note's line instead.
        if CassetteReporter.warningsShown == false {
            CassetteReporter.note(marked.comments.map(\.rawValue).joined(separator: "\n"), at: location)
            return nil
        }
        marked.severity = .warning
        return marked
    }
}
