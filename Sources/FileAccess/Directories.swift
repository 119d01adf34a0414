#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creating the folders a file is written into (`mkdir -p`), with the operating system's reason
/// on failure.
public enum Directories {
    /// Whether `path` is a folder (through a symbolic link to one): the one test of it in the
    /// package (`replay`'s folders of cassettes, the bundled scenarios' folder).
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and every missing folder above it with `mode` (less the umask); a folder that
    /// exists already is fine, anything else at one of the places is an error naming it.
    public static func create(_ path: String, mode: UInt32 = 0o777) throws(FileAccessError) {
        guard !path.isEmpty else { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode_t(mode)) == 0 { continue }
            let code = errno
            var status = stat()
            guard stat(prefix, &status) == 0 else {
                throw .system(path, "cannot create the directory \(prefix)", code: code)
            }
            guard UInt32(status.st_mode) & FileType.mask == FileType.directory else {
                let what = FileType.describe(UInt32(status.st_mode))
                throw FileAccessError(
                    kind: .notRegularFile(what: what), path: path, action: "cannot create the directory \(prefix)",
                    reason: "it is \(what)")
            }
        }
    }
}
