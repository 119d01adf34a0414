#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be written (`AtomicFile`) or read (`InputFile`): the path, what was being
/// done, and the operating system's reason (`strerror` of `errno`) or what the path is instead of a
/// file. `description` is one complete line: `out.json: cannot write: No space left on device`.
public struct FileAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure a caller may want to tell apart.
    public enum Kind: Sendable, Hashable {
        /// The path is not a regular file (a FIFO, a device, a directory, a socket); `what` says which.
        case notRegularFile(what: String)
        /// Nothing at the path (reading), or the directory to write in does not exist.
        case missing
        /// A system call failed; `errno` and `reason` say why.
        case system
        /// Reading: the input is longer than the limit the reader allows.
        case tooLarge(limit: Int)
        /// Reading a pipe or device: nothing came for the time allowed.
        case timedOut(seconds: Int)
    }

    public var kind: Kind
    /// The path as the caller gave it.
    public var path: String
    /// What failed, without the path: `cannot write`, `cannot rename the temporary file into place`.
    public var action: String
    /// The operating system's reason or another explanation (`No space left on device`).
    public var reason: String
    /// The `errno` of the failed call, when one failed.
    public var errno: Int32?

    public init(kind: Kind, path: String, action: String, reason: String, errno: Int32? = nil) {
        self.kind = kind
        self.path = path
        self.action = action
        self.reason = reason
        self.errno = errno
    }

    /// A failed system call: `reason` is `strerror(code)`.
    static func system(_ path: String, _ action: String, code: Int32) -> FileAccessError {
        FileAccessError(
            kind: code == ENOENT ? .missing : .system, path: path, action: action,
            reason: String(cString: strerror(code)), errno: code)
    }

    public var description: String { "\(path): \(action): \(reason)" }
}
