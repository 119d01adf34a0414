import ClientConformance
import Conformance
import Testing

/// Five clients with one flaw each (`BrokenClients`): each fails the case that covers its flaw,
/// and every other case as the SDK without the flaw does.
@Suite struct BrokenClientTests {
    static let doubles: [(String, BuiltinDriver, String)] = [
        ("repeats x", BrokenClients.repeatsX, "random.x-fresh"),
        ("fixed seed", BrokenClients.fixedSeed, "random.x-unpredictable"),
        ("follows redirects", BrokenClients.followsRedirects, "http-fault.redirect-pass2"),
        ("skips the share check", BrokenClients.skipsShareCheck, "secrets.dta-share-off-curve"),
        ("sends the PIN", BrokenClients.sendsPIN, "secrets.pin"),
    ]

    @Test(arguments: 0..<doubles.count)
    func failsExactlyItsCase(index: Int) async throws {
        let (name, driver, expected) = Self.doubles[index]
        let report = try await ClientSuiteRun.report(driver)
        let failed = ClientSuiteRun.failed(report)
        #expect(
            failed == BuiltinClientTests.knownShouldFailures.union([expected]),
            "\(name): \(ClientSuiteRun.summary(report))")
        let verdict = report.results.first { $0.id == expected }?.verdict
        #expect(verdict?.kind == .fail)
        #expect(report.failsRun)
    }
}
