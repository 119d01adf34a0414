import Foundation

/// The upstream reference data kept beside the repository, never inside it: `../shared/vectors`
/// (AMCL's published vector files) and `../shared/interop` (artifacts of the real Milagro system),
/// relative to the repository root, or below `MPIN_WORKBENCH_SHARED` when it is set.
///
/// Tests that read it are enabled only when the folder is there, with a comment that names it, so
/// that a checkout without it reports them as skipped instead of passing them silently:
///
/// ```swift
/// @Test(.enabled(if: SharedData.hasVectors, "needs ../shared/vectors (absent)"))
/// ```
package enum SharedData {
    /// The shared folder, without a trailing slash.
    package static let root: String = {
        if let override = ProcessInfo.processInfo.environment["MPIN_WORKBENCH_SHARED"], !override.isEmpty {
            return override
        }
        return URL(fileURLWithPath: RepoPaths.root).deletingLastPathComponent().appendingPathComponent("shared").path
    }()

    /// `../shared/vectors`.
    package static var vectors: String { root + "/vectors" }
    /// `../shared/interop`.
    package static var interop: String { root + "/interop" }

    /// Whether `../shared/vectors` is a folder.
    package static var hasVectors: Bool { isDirectory(vectors) }
    /// Whether `../shared/interop` is a folder.
    package static var hasInterop: Bool { isDirectory(interop) }

    /// `relative` below `../shared/vectors`.
    package static func vectorPath(_ relative: String) -> String { vectors + "/" + relative }

    /// Every `.txt` and `.json` file below `../shared/vectors/<folder>` (all of it for ""), sorted by
    /// path; empty when the folder is absent.
    package static func vectorFiles(in folder: String = "") -> [String] {
        let base = folder.isEmpty ? vectors : vectorPath(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".json") }
            .map { base + "/" + $0 }
            .sorted()
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
