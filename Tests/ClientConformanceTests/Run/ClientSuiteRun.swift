import ClientConformance
import Conformance
import Foundation
import TestSupport

/// Runs the client suite for the tests: a selection of cases, one profile, working folders
/// under a scratch folder of the test's own.
enum ClientSuiteRun {
    static func report(
        _ driver: any ClientDriver, profile: ClientProfile = .default, cases pattern: String? = nil,
        timeLimit: Double = 60
    ) async throws -> ConformanceReport {
        var options = ClientSuite.Options()
        options.profile = profile
        options.pattern = pattern.flatMap(CasePattern.init)
        options.runTimeLimit = timeLimit
        options.workFolder = try TemporaryDirectory.make("client-suite")
        return try await ClientSuite(options: options, driver: driver).run()
    }

    /// The ids of the cases that failed.
    static func failed(_ report: ConformanceReport) -> Set<String> {
        Set(report.results.filter { $0.verdict.kind == .fail }.map(\.id))
    }

    /// Each case that did not pass, one a line.
    static func summary(_ report: ConformanceReport) -> String {
        report.results.filter { $0.verdict.kind != .pass }.map {
            "\($0.verdict.kind.rawValue) \($0.id): \($0.verdict.reason)"
        }
        .joined(separator: "\n")
    }
}
