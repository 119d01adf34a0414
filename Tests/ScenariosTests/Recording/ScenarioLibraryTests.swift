import Foundation
import Scenarios
import TestSupport
import Testing

/// The scenario library's folder may be a symbolic link: a checkout's Scenarios/ linked into
/// another working folder (as the docs' examples run) is walked, suites and scenarios alike.
@Suite struct ScenarioLibraryTests {
    @Test func aLinkedFolderIsWalked() throws {
        let folder = try TemporaryDirectory.make("scenario-library")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/Scenarios"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: RepoPaths.scenarios)
        let linked = ScenarioLibrary(directory: link), direct = ScenarioLibrary(directory: RepoPaths.scenarios)
        #expect(!direct.suiteFiles().isEmpty && !direct.files().isEmpty)
        #expect(linked.files().count == direct.files().count)
        #expect(linked.suiteFiles().count == direct.suiteFiles().count)
        #expect(linked.files().allSatisfy { $0.hasPrefix(link + "/") })
        #expect(try linked.find("authenticate")?.name == "authenticate")
    }
}
