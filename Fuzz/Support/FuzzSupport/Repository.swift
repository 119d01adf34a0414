import Foundation

/// Paths in the repository the fuzz package lives in (`Fuzz/` at its root).
public enum Repository {
    /// The repository's root: four levels up from this file (Fuzz/Support/FuzzSupport/Repository.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// A folder of this process's own for files a target writes (removed and made anew at start).
    public static let scratch: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let path = base + "/mpin-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
}
