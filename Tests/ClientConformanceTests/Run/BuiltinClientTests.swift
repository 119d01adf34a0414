import ClientConformance
import Conformance
import Testing

/// The project's SDK, graded by the client suite under each profile: it fails no case. (Before, it
/// sent pass 2 for any y and failed the three SHOULD cases of pass 1's y.)
@Suite struct BuiltinClientTests {
    /// The cases the SDK fails: none.
    static let knownShouldFailures: Set<String> = []

    @Test(arguments: ClientProfile.allCases)
    func passesEveryMustCase(profile: ClientProfile) async throws {
        let report = try await ClientSuiteRun.report(BuiltinDriver(), profile: profile)
        #expect(report.results.count == ClientSuite(options: .init(), driver: BuiltinDriver()).cases.count)
        #expect(!report.failsRun, "\(ClientSuiteRun.summary(report))")
        #expect(ClientSuiteRun.failed(report) == Self.knownShouldFailures, "\(ClientSuiteRun.summary(report))")
        #expect(report.couldNotGrade == nil)
        #expect(report.client?.hasPrefix("builtin") == true)
    }
}
