import Foundation

/// Scratch folders for tests that write files: each name is new (a prefix and a UUID) under the
/// system's temporary directory.
package enum TemporaryDirectory {
    /// A path that nothing uses yet, for code that must create the folder itself.
    package static func unusedPath(_ prefix: String) -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// A new, empty folder.
    package static func make(_ prefix: String) throws -> String {
        let path = unusedPath(prefix)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
