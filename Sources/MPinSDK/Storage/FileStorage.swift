import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Storage in two files of a directory the caller names: `secure-storage.json` and `storage.json`.
///
/// * The directory is created (mode 0700) when missing; files are created with mode 0600.
/// * Writes are atomic: the text goes to a new temporary file in the same directory, which is
///   flushed (`fsync`) and then renamed over the old file, so a crash leaves either the old or the
///   new text, never a mix.
/// * `moveAside` renames a file to `<name>.corrupt-<n>` (the first free n from 1), so nothing is
///   ever silently overwritten.
public final class FileStorage: SDKStorage, @unchecked Sendable {
    public let directory: String
    private let names: [StorageKind: String]
    private let lock = NSLock()
    private var temporaryCounter = 0

    public init(directory: String, secureFileName: String = "secure-storage.json",
                nonSecureFileName: String = "storage.json") {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.names = [.secure: secureFileName, .nonSecure: nonSecureFileName]
    }

    public func location(of kind: StorageKind) -> String {
        directory + "/" + names[kind]!
    }

    public func read(_ kind: StorageKind) throws(StorageError) -> String? {
        let path = location(of: kind)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw StorageError(kind: kind, path: path, reason: "cannot open for reading: " + Self.describe(code))
        }
        defer { close(fd) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = systemRead(fd, &buffer, buffer.count)
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw StorageError(kind: kind, path: path, reason: "cannot read: " + Self.describe(code))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw StorageError(kind: kind, path: path, reason: "not UTF-8 text")
        }
        return text
    }

    public func write(_ kind: StorageKind, _ text: String) throws(StorageError) {
        let path = location(of: kind)
        try ensureDirectory(kind)
        let temporary = lock.withLock { () -> String in
            temporaryCounter += 1
            return directory + "/." + names[kind]! + ".tmp-\(getpid())-\(temporaryCounter)"
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            throw StorageError(kind: kind, path: path, reason: "cannot create \(temporary): " + Self.describe(errno))
        }
        var failure: String?
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = "cannot write \(temporary): " + Self.describe(errno)
                break
            }
            written += count
        }
        if failure == nil && fchmod(fd, 0o600) != 0 { failure = "cannot set mode 0600: " + Self.describe(errno) }
        if failure == nil && fsync(fd) != 0 { failure = "cannot flush \(temporary): " + Self.describe(errno) }
        if close(fd) != 0 && failure == nil { failure = "cannot close \(temporary): " + Self.describe(errno) }
        if failure == nil && rename(temporary, path) != 0 { failure = "cannot rename \(temporary) over the file: " + Self.describe(errno) }
        if let failure {
            unlink(temporary)
            throw StorageError(kind: kind, path: path, reason: failure)
        }
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    public func moveAside(_ kind: StorageKind) throws(StorageError) -> String {
        let path = location(of: kind)
        var number = 1
        while access(path + ".corrupt-\(number)", F_OK) == 0 { number += 1 }
        let target = path + ".corrupt-\(number)"
        guard rename(path, target) == 0 else {
            throw StorageError(kind: kind, path: path, reason: "cannot move aside to \(target): " + Self.describe(errno))
        }
        return target
    }

    private func ensureDirectory(_ kind: StorageKind) throws(StorageError) {
        var status = stat()
        if stat(directory, &status) == 0 { return }
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw StorageError(kind: kind, path: location(of: kind),
                                   reason: "cannot create directory \(prefix): " + Self.describe(errno))
            }
        }
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
