import Foundation
import TestSupport
import Testing

/// A bundled scenario resolves by name from any folder: the checkout's `Scenarios/` is found beside
/// the program, and when no folder is found the error names where it looked. Before, `record
/// authenticate` worked only from the repository's root.
@Suite(.enabled(if: WorkbenchProcess.path != nil))
struct ScenarioLookupExecutableTests {
    @Test func aBundledNameWorksFromAnotherFolder() throws {
        let directory = try TemporaryDirectory.make("scenario-lookup")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = try WorkbenchProcess.run(
            ["record", "authenticate", "--embedded", "--out", directory + "/flow.json"], in: directory, seconds: 300)
        #expect(recorded.status == 0, "\(recorded)")
        #expect(FileManager.default.fileExists(atPath: directory + "/flow.json"))
    }

    @Test func theErrorNamesWhereItLooked() throws {
        let directory = try TemporaryDirectory.make("scenario-lookup-missing")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try WorkbenchProcess.run(
            shell: "MPIN_WORKBENCH_SCENARIOS=\(directory)/none exec \"$WORKBENCH\" record authenticate --embedded "
                + "--out \(directory)/flow.json", in: directory, seconds: 120)
        #expect(missing.status == 2, "\(missing)")
        #expect(
            missing.stderr.contains("no folder of bundled scenarios was found (looked in $MPIN_WORKBENCH_SCENARIOS"),
            "\(missing)")
        let unknown = try WorkbenchProcess.run(
            ["record", "authentcate", "--embedded", "--out", directory + "/flow.json"], in: directory, seconds: 120)
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean authenticate?"), "\(unknown)")
    }
}
