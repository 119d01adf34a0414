import Conformance
import Foundation
import OrderedJSON
import ReferenceBackend
import TestSupport
import Testing

/// The suite graded against our own backends: the default profile passes every MUST case, and
/// `milagro-oss` gets exactly the verdicts committed in `Expected/milagro-oss.json` (the real
/// open-source server's flaws, each with its reason), `milagro-hosted-v3` those of
/// `Expected/milagro-hosted-v3.json`, the default profile's are pinned in `Expected/default.json`, and the MFA platform flavour's
/// (`--client-id`, registrations with an access code from `/authorize`) in `Expected/mfa-platform.json`. `CONFORM_WRITE_EXPECTED=1` rewrites the file
/// from a run instead of comparing.
@Suite struct ProfileVerdictTests {
    @Test func theDefaultProfilePassesEveryMustCase() async throws {
        let report = try await ConformanceRun.run(profile: .default)
        print(report.terminalSummary())
        let failed = report.results.filter(\.failsRun).map { "\($0.id): \($0.verdict.reason)" }
        #expect(failed.isEmpty, "MUST cases failed on the default profile:\n\(failed.joined(separator: "\n"))")
        #expect(report.results.count == ConformanceCatalog.all.count)
        try compare(report, with: "default")
    }

    @Test func milagroOSSFailsExactlyTheExpectedCases() async throws {
        let report = try await ConformanceRun.run(profile: .milagroOSS)
        print(report.terminalSummary())
        try compare(report, with: "milagro-oss")
    }

    @Test func milagroHostedV3GetsItsExpectedVerdicts() async throws {
        let report = try await ConformanceRun.run(profile: .milagroHostedV3)
        print(report.terminalSummary())
        try compare(report, with: "milagro-hosted-v3")
    }

    @Test func theMFAPlatformFlavourGetsItsExpectedVerdicts() async throws {
        let report = try await ConformanceRun.run(profile: .default, flavour: .mfaPlatform)
        print(report.terminalSummary())
        #expect(!report.failsRun)
        try compare(report, with: "mfa-platform")
    }

    /// Compares a run's verdict kinds with the expected file of a profile (or writes it).
    private func compare(_ report: ConformanceReport, with profile: String) throws {
        let path = RepoPaths.path("Tests/ConformanceTests/Expected/\(profile).json")
        if ProcessInfo.processInfo.environment["CONFORM_WRITE_EXPECTED"] == "1" {
            let members = report.results.map { result in
                JSONValue.Member(
                    result.id,
                    .object([
                        .init("verdict", .string(result.verdict.kind.rawValue)),
                        .init("reason", .string(result.verdict.reason.replacing(report.backendURL, with: "<backend>"))),
                    ]))
            }
            try Data((JSONWriter.canonical(.object(members)) + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let expected = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        var differences: [String] = []
        for result in report.results {
            guard let want = expected[result.id]?["verdict"]?.stringValue else {
                differences.append("\(result.id): not in \(profile).json (got \(result.verdict))")
                continue
            }
            if want != result.verdict.kind.rawValue {
                differences.append(
                    "\(result.id): expected \(want) (\(expected[result.id]?["reason"]?.stringValue ?? "")), got \(result.verdict)"
                )
            }
        }
        let ids = Set(report.results.map(\.id))
        for member in expected.objectMembers ?? [] where !ids.contains(member.name) {
            differences.append("\(member.name): in \(profile).json but not run")
        }
        #expect(
            differences.isEmpty,
            "\(profile): \(differences.count) verdicts differ:\n\(differences.joined(separator: "\n"))")
    }
}
