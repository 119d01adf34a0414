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
        let writer = try Writer(path: path, options: options)
        try writer.append(bytes)
        try writer.commit()
    }

    /// Writes a file piece by piece, with the guarantees of `write(_:to:options:)`, for content too
    /// large to hold in memory (`vectors generate --count 100000`).
    ///
    /// `init` resolves the destination and creates the temporary file next to it; `append` writes
    /// each piece to the temporary file as it comes; `commit()` flushes it, renames it over the
    /// destination and flushes the directory. Until `commit()` the destination is untouched, so a
    /// failure or a crash on the way leaves the old file (or none), never part of the new one. A
    /// failed `append` or `commit()` removes the temporary file, and so does a writer released
    /// without `commit()`; after a failure or a commit the writer refuses further calls.
    ///
    /// ```swift
    /// let writer = try AtomicFile.Writer(path: "out.json")
    /// for piece in pieces { try writer.append(piece) }
    /// try writer.commit()
    /// ```
    public final class Writer {
        /// The path as the caller gave it (what errors name).
        public let path: String
        private let target: String
        private let directory: String
        private let temporary: String
        /// The temporary file, open for writing; -1 once committed or abandoned.
        private var fd: Int32

        /// Resolves `path` (through symbolic links, refusing what is not a regular file) and creates
        /// the temporary file with the permissions `options` and an existing file give.
        public init(path: String, options: Options = Options()) throws(FileAccessError) {
            let destination = try AtomicFile.resolve(path)
            let (directory, name) = AtomicFile.split(destination.path)
            let existing = destination.status
            var mode = options.newFileMode & 0o7777
            if let fixed = options.fixedMode {
                mode = fixed & 0o7777
            } else if let existing {
                mode = UInt32(existing.st_mode) & 0o7777
            }
            let (fd, temporary) = try AtomicFile.createTemporary(in: directory, for: name, mode: mode, path: path)
            self.path = path
            self.target = destination.path
            self.directory = directory
            self.temporary = temporary
            self.fd = fd
            if options.fixedMode != nil || existing != nil {
                if fchmod(fd, mode_t(mode)) != 0 { throw fail("cannot set the permissions of the new file", errno) }
            }
            if let existing, options.fixedMode == nil {
                // Best effort: only the owner's own group, or root, may hand the file over.
                _ = fchown(fd, existing.st_uid, existing.st_gid)
            }
        }

        deinit {
            if fd >= 0 {
                close(fd)
                unlink(temporary)
            }
        }

        /// Appends `bytes` to the temporary file.
        public func append(_ bytes: [UInt8]) throws(FileAccessError) {
            try checkOpen()
            if let error = bytes.withUnsafeBytes({ writeAll($0) }) { throw error }
        }

        /// Appends the UTF-8 bytes of `text` to the temporary file.
        public func append(_ text: String) throws(FileAccessError) {
            try checkOpen()
            var text = text
            if let error = text.withUTF8({ writeAll(UnsafeRawBufferPointer($0)) }) { throw error }
        }

        /// Writes all of `buffer`, retrying after interruptions; the error (the temporary file
        /// abandoned) when a write fails.
        private func writeAll(_ buffer: UnsafeRawBufferPointer) -> FileAccessError? {
            var written = 0
            while written < buffer.count {
                let count = systemWrite(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if count < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    return fail("cannot write", code)
                }
                if count == 0 { return fail("cannot write", EIO) }
                written += count
            }
            return nil
        }

        /// Flushes the temporary file, renames it over the destination and flushes the directory.
        public func commit() throws(FileAccessError) {
            try checkOpen()
            if fsync(fd) != 0 { throw fail("cannot flush the new file to disk", errno) }
            let closed = close(fd)
            fd = -1
            if closed != 0 {
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

        private func checkOpen() throws(FileAccessError) {
            guard fd >= 0 else {
                throw FileAccessError(
                    kind: .system, path: path, action: "cannot write",
                    reason: "the file was already committed or abandoned after a failure")
            }
        }

        /// Abandons the temporary file and returns the error for `action`.
        private func fail(_ action: String, _ code: Int32) -> FileAccessError {
            close(fd)
            fd = -1
            unlink(temporary)
            return .system(path, action, code: code)
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
                let reason =
                    current == path
                    ? "is \(what), not a regular file; refusing to replace it"
                    : "is a symbolic link to \(current), which is \(what), not a regular file; refusing to write to it"
                throw FileAccessError(
                    kind: .notRegularFile(what: what), path: path, action: "cannot write", reason: reason)
            }
            guard let link = readLink(current) else {
                throw .system(path, "cannot read the symbolic link \(current)", code: errno)
            }
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

    /// A new file `.<name>.<random>.tmp` in `directory`, opened for writing with `mode` (`name`
    /// shortened so that the temporary name stays within `SafeFileName.maximumBytes`).
    static func createTemporary(in directory: String, for name: String, mode: UInt32, path: String)
        throws(FileAccessError) -> (Int32, String)
    {
        var generator = SystemRandomNumberGenerator()
        var code: Int32 = EEXIST
        for _ in 0..<16 {
            let temporary = (directory == "/" ? "" : directory) + "/" + temporaryName(for: name, generator: &generator)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return (fd, temporary) }
            code = errno
            if code != EEXIST && code != EINTR { break }
        }
        throw .system(path, "cannot create a file in \(directory)", code: code)
    }

    /// `.<name>.<12 random hex digits>.tmp`, `name` cut (at a character) so that the whole stays
    /// within `SafeFileName.maximumBytes`: a 255-byte name can still be written.
    static func temporaryName(for name: String, generator: inout SystemRandomNumberGenerator) -> String {
        let suffix = String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16)
        let kept = SafeFileName.prefix(
            name, maximumBytes: SafeFileName.maximumBytes - (".." + suffix + ".tmp").utf8.count)
        return ".\(kept).\(suffix).tmp"
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
