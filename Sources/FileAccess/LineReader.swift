#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a regular file a line at a time, for inputs too large to hold (`vectors merge` of shard
/// files with a hundred thousand tests): memory holds one buffer and the longest line, bounded.
///
/// * Only a regular file is read (a directory, FIFO, device or socket is refused, naming what it
///   is), so a read never waits on a writer.
/// * A line is the bytes up to a line feed, without it; the last line may lack one (`endsWithNewline`
///   says whether the file ended with one). A line longer than `maximumLineLength` is an error naming
///   the line's number.
///
/// ```swift
/// let reader = try LineReader(path: "shard-1.json")
/// while let line = try reader.next() { use(reader.lineNumber, line) }
/// ```
public final class LineReader {
    /// The path as the caller gave it (what errors name).
    public let path: String
    /// The longest line taken, in bytes.
    public let maximumLineLength: Int
    /// The number of the line `next()` returned last (1 for the first), 0 before.
    public private(set) var lineNumber = 0
    /// Whether the file's last byte was a line feed (known once `next()` returned nil).
    public private(set) var endsWithNewline = false

    private var fd: Int32
    private var buffer: [UInt8]
    private var start = 0, end = 0
    private var atEnd = false
    private var lastHadNewline = false

    /// The default longest line, 16 MiB.
    public static let defaultMaximumLineLength = 16 << 20

    /// Opens `path` for reading; throws for a missing file or one that is not a regular file.
    public init(path: String, maximumLineLength: Int = defaultMaximumLineLength) throws(FileAccessError) {
        guard !path.isEmpty else {
            throw FileAccessError(kind: .missing, path: path, action: "cannot read", reason: "the path is empty")
        }
        var status = stat()
        if stat(path, &status) != 0 { throw .system(path, "cannot read", code: errno) }
        guard UInt32(status.st_mode) & FileType.mask == FileType.regular else {
            let what = FileType.describe(UInt32(status.st_mode))
            throw FileAccessError(
                kind: .notRegularFile(what: what), path: path, action: "cannot read",
                reason: "is \(what), not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .system(path, "cannot open for reading", code: errno) }
        self.fd = fd
        self.path = path
        self.maximumLineLength = maximumLineLength
        buffer = [UInt8](repeating: 0, count: 65_536)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The next line as UTF-8 text (invalid bytes become U+FFFD), nil at the end of the file.
    public func nextText() throws(FileAccessError) -> String? {
        try next().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line's bytes without the line feed, nil at the end of the file.
    public func next() throws(FileAccessError) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                try checkLength(line.count)
                lineNumber += 1
                lastHadNewline = true
                return line
            }
            line += buffer[start..<end]
            start = end
            try checkLength(line.count)
            if atEnd {
                guard !line.isEmpty else {
                    endsWithNewline = lastHadNewline
                    return nil
                }
                lineNumber += 1
                lastHadNewline = false
                return line
            }
            try fill()
        }
    }

    private func checkLength(_ count: Int) throws(FileAccessError) {
        guard count > maximumLineLength else { return }
        throw FileAccessError(
            kind: .tooLarge(limit: maximumLineLength), path: path, action: "cannot read line \(lineNumber + 1)",
            reason: "longer than \(maximumLineLength) bytes, the most this reader takes")
    }

    /// Reads the next piece of the file into the (empty) buffer.
    private func fill() throws(FileAccessError) {
        start = 0
        end = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { lineReaderRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .system(path, "cannot read", code: code)
            }
            if count == 0 { atEnd = true } else { end = count }
            return
        }
    }
}

private func lineReaderRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
