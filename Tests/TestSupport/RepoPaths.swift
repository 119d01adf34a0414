import Foundation

/// Where the tests find the repository's own files (`Vectors/`, `Recordings/`, `Scenarios/`, the
/// fixtures of the test folders): from the location of this file, two folders below the root
/// (`Tests/TestSupport/RepoPaths.swift`), or from `MPIN_WORKBENCH_ROOT` when it is set.
package enum RepoPaths {
    /// The repository root, without a trailing slash.
    package static let root: String = {
        if let override = ProcessInfo.processInfo.environment["MPIN_WORKBENCH_ROOT"], !override.isEmpty {
            return override
        }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `relative` below the root.
    package static func path(_ relative: String) -> String { root + "/" + relative }

    /// `Vectors/`.
    package static var vectors: String { path("Vectors") }
    /// `Recordings/`, the cassettes.
    package static var recordings: String { path("Recordings") }
    /// `Scenarios/`, the scenario scripts.
    package static var scenarios: String { path("Scenarios") }

    /// `../shared/` beside the repository (`SharedData.root`, the one home of where it is): the real
    /// system's artifacts, read at test time and never copied in. Tests that need it are skipped,
    /// saying so, when it is absent.
    package static var shared: String { SharedData.root }
    /// Whether `relative` exists below `../shared/`.
    package static func hasShared(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: shared + "/" + relative)
    }
    /// `relative` below `../shared/`, nil when it is not there.
    package static func sharedFile(_ relative: String) -> String? {
        hasShared(relative) ? shared + "/" + relative : nil
    }
}
