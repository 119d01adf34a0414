#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files atomically: the one way the workbench writes a file (cassettes, vector files,
/// HTML diagrams, the SDK's storage, the device state).
///
/// `write(_:to:options:)`:
/// * writes the bytes to a new temporary file next to the destination, flushes it (`fsync`),
///   renames it over the destination and flushes the directory, so a reader or a crash sees the
///   old file or the new one, never a mix; on any failure the temporary file is removed;
/// * writes through symbolic links: the destination is the regular file the link (or chain of
///   links, at most 40) leads to, which is replaced while the link stays as it was. A dangling
///   link is followed too and the file it names is created, as a shell's `>` does (the directory
///   it would be in must exist);
/// * refuses anything that is not a regular file (a FIFO, a character or block device, a
///   directory, a socket), naming the path and what it is, and leaves it alone;
/// * keeps an existing file's permissions (and, when allowed, its owner and group) unless
///   `Options.fixedMode` says otherwise; a new file gets `Options.newFileMode` less the umask;
/// * reports every failure with the operating system's reason (`strerror`), e.g.
///   `out.json: cannot write: No space left on device`.
///
/// Parent directories are not created: callers that want them make them first.
public enum AtomicFile {
    /// Permissions of what is written.
    public struct Options: Sendable, Hashable {
        /// The permissions of a file that does not exist yet; the process umask applies.
        public var newFileMode: UInt32
        /// Permissions the file gets whatever it had (0o600 for secrets, umask not applied); nil
        /// keeps an existing file's permissions.
        public var fixedMode: UInt32?

        public init(newFileMode: UInt32 = 0o666, fixedMode: UInt32? = nil) {
            self.newFileMode = newFileMode
            self.fixedMode = fixedMode
        }
    }

    /// The most symbolic links followed from the path given (Linux's limit for one path).
    static let maximumLinks = 40

    /// Writes `bytes` as the whole content of `path` (see the type's description).
    public static func write(_ bytes: [UInt8], to path: String, options: Options = Options()) throws(FileAccessError) {
        let destination = try resolve(path)
        let target = destination.path
        let (directory, name) = split(target)
        let existing = destination.status
        var mode = options.newFileMode & 0o7777
        if let fixed = options.fixedMode { mode = fixed & 0o7777 } else if let existing { mode = UInt32(existing.st_mode) & 0o7777 }

        let (fd, temporary) = try createTemporary(in: directory, for: name, mode: mode, path: path)
        func fail(_ action: String, _ code: Int32) -> FileAccessError {
            close(fd)
            unlink(temporary)
            return .system(path, action, code: code)
        }
        if options.fixedMode != nil || existing != nil {
            if fchmod(fd, mode_t(mode)) != 0 { throw fail("cannot set the permissions of the new file", errno) }
        }
        if let existing, options.fixedMode == nil {
            // Best effort: only the owner's own group, or root, may hand the file over.
            _ = fchown(fd, existing.st_uid, existing.st_gid)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw fail("cannot write", code)
            }
            if count == 0 { throw fail("cannot write", EIO) }
            written += count
        }
        if fsync(fd) != 0 { throw fail("cannot flush the new file to disk", errno) }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw .system(path, "cannot write", code: code)
        }
        if rename(temporary, target) != 0 {
            let code = errno
            unlink(temporary)
            throw .system(path, "cannot rename the temporary file into place", code: code)
        }
        // The rename is durable once the directory is flushed; some file systems refuse to flush a
        // directory, and the file is in place by now, so a failure here is not reported.
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Where a write to `path` lands: `path` itself, or the file its symbolic links lead to, with
    /// that file's status when it exists. Throws for what is not a regular file.
    static func resolve(_ path: String) throws(FileAccessError) -> (path: String, status: stat?) {
        guard !path.isEmpty else {
            throw FileAccessError(kind: .missing, path: path, action: "cannot write", reason: "the path is empty")
        }
        var current = path
        for _ in 0...maximumLinks {
            var status = stat()
            if lstat(current, &status) != 0 {
                let code = errno
                if code == ENOENT { return (current, nil) }
                throw .system(path, "cannot write", code: code)
            }
            let type = UInt32(status.st_mode) & FileType.mask
            if type == FileType.regular { return (current, status) }
            guard type == FileType.symbolicLink else {
                let what = FileType.describe(UInt32(status.st_mode))
                let reason = current == path
                    ? "is \(what), not a regular file; refusing to replace it"
                    : "is a symbolic link to \(current), which is \(what), not a regular file; refusing to write to it"
                throw FileAccessError(kind: .notRegularFile(what: what), path: path, action: "cannot write", reason: reason)
            }
            guard let link = readLink(current) else { throw .system(path, "cannot read the symbolic link \(current)", code: errno) }
            current = link.hasPrefix("/") ? link : split(current).directory + "/" + link
        }
        throw .system(path, "cannot write", code: ELOOP)
    }

    /// The directory (`.` when none is named) and the last component of a path.
    static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let directory = trimmed[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// A new file `.<name>.<random>.tmp` in `directory`, opened for writing with `mode`.
    private static func createTemporary(in directory: String, for name: String, mode: UInt32, path: String)
        throws(FileAccessError) -> (Int32, String) {
        var generator = SystemRandomNumberGenerator()
        var code: Int32 = EEXIST
        for _ in 0..<16 {
            let suffix = String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16)
            let temporary = (directory == "/" ? "" : directory) + "/.\(name).\(suffix).tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return (fd, temporary) }
            code = errno
            if code != EEXIST && code != EINTR { break }
        }
        throw .system(path, "cannot create a file in \(directory)", code: code)
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
