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

    /// `../shared/` beside the repository: the real system's artifacts (upstream recordings, the
    /// open-source server's answers, AMCL's published vectors), read at test time, never copied in.
    package static var shared: String { (URL(fileURLWithPath: root).deletingLastPathComponent().path) + "/shared" }
    /// `relative` below `../shared/`, nil when it is not there (a clone without it: the tests that
    /// need it say so and are skipped).
    package static func sharedFile(_ relative: String) -> String? {
        let path = shared + "/" + relative
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
