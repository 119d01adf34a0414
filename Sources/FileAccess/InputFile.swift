#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole input file, bounded: a regular file, or what a pipe, a FIFO or a character device
/// gives (`/dev/stdin`, `<(command)`), so that an input can be piped in.
///
/// * The size is bounded (`limit`, 256 MiB unless the reader says otherwise): a longer input is an
///   error naming the limit, never a memory blow-up (`/dev/zero` is refused once past it).
/// * A pipe, FIFO or device is read until its end of input; waiting is bounded too: when nothing
///   comes for `idleSeconds` (60 unless the reader says otherwise) the read fails, saying so. A FIFO
///   nobody has opened for writing yet is waited for in the same way, not forever.
/// * A directory or a socket is refused, naming what it is; a missing file, a permission problem or
///   a read error gives the operating system's reason (`No such file or directory`, `Permission
///   denied`).
public enum InputFile {
    /// The default size limit, 256 MiB.
    public static let defaultLimit = 256 << 20
    /// The default longest wait for more input from a pipe or device, in seconds.
    public static let defaultIdleSeconds = 60

    /// The bytes of the file at `path` (see the type's description).
    public static func read(_ path: String, limit: Int = defaultLimit, idleSeconds: Int = defaultIdleSeconds)
        throws(FileAccessError) -> [UInt8]
    {
        guard !path.isEmpty else {
            throw FileAccessError(kind: .missing, path: path, action: "cannot read", reason: "the path is empty")
        }
        var status = stat()
        if stat(path, &status) != 0 { throw .system(path, "cannot read", code: errno) }
        let type = UInt32(status.st_mode) & FileType.mask
        if type == FileType.directory || type == FileType.socket {
            let what = FileType.describe(UInt32(status.st_mode))
            throw FileAccessError(
                kind: .notRegularFile(what: what), path: path, action: "cannot read",
                reason: "is \(what), not a file to read")
        }
        let regular = type == FileType.regular
        if regular, Int(status.st_size) > limit { throw tooLarge(path, limit) }
        // Non-blocking, so that opening a FIFO with no writer does not wait unbounded; reads wait in poll().
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regular ? 0 : O_NONBLOCK))
        if fd < 0 { throw .system(path, "cannot open for reading", code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if !regular { try waitForInput(fd, path: path, idleSeconds: idleSeconds) }
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                throw .system(path, "cannot read", code: code)
            }
            if count == 0 { return bytes }
            if bytes.count + count > limit { throw tooLarge(path, limit) }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Waits until `fd` has input or its end, at most `idleSeconds`.
    private static func waitForInput(_ fd: Int32, path: String, idleSeconds: Int) throws(FileAccessError) {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: max(0, idleSeconds) * 1000)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready == 0 {
                throw FileAccessError(
                    kind: .timedOut(seconds: idleSeconds), path: path, action: "cannot read",
                    reason: "no input came for \(idleSeconds) s (is anything writing to it?)")
            }
            if errno != EINTR { throw .system(path, "cannot wait for input", code: errno) }
        }
    }

    private static func tooLarge(_ path: String, _ limit: Int) -> FileAccessError {
        FileAccessError(
            kind: .tooLarge(limit: limit), path: path, action: "cannot read",
            reason: "longer than \(limit) bytes, the most this reader takes")
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
