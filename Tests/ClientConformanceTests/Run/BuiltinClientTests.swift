import ClientConformance
import Conformance
import Testing

/// The project's SDK, graded by the client suite under each profile: it fails no MUST case, and
/// the SHOULD cases it fails are the known ones (it does not check pass 1's y, docs/conformance.md).
@Suite(.serialized) struct BuiltinClientTests {
    /// The SHOULD cases the SDK fails: it sends pass 2 for any y.
    static let knownShouldFailures: Set<String> = [
        "protocol.pass1-y-zero", "protocol.pass1-y-order", "protocol.pass1-y-max",
    ]

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
