import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The device state in one JSON file (sorted keys), written atomically.
///
/// * The directory is created (mode 0700) when missing; the file has mode 0600.
/// * A write goes to a new temporary file in the same directory, which is flushed (`fsync`) and
///   renamed over the old file, then the directory is flushed: a crash leaves the old or the new
///   state, never a mix.
/// * A file that is not a readable state is moved aside to `<path>.corrupt-<n>` (the first free n
///   from 1) and reported as a `DeviceStorageError` naming where it went: the device starts afresh
///   and nothing is ever overwritten unseen.
public final class FileDeviceStateStore: DeviceStateStore, @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    private var counter = 0

    public init(path: String) {
        self.path = path
    }

    /// A store at `directory/devicesecurity.json`.
    public convenience init(directory: String) {
        self.init(path: (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/devicesecurity.json")
    }

    public func load() throws(DeviceStorageError) -> DeviceState? {
        lock.lock()
        defer { lock.unlock() }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DeviceStorageError(path: path, reason: "cannot be read")
        }
        do {
            return try JSONDecoder().decode(DeviceState.self, from: data)
        } catch {
            var number = 1
            while FileManager.default.fileExists(atPath: path + ".corrupt-\(number)") { number += 1 }
            let aside = path + ".corrupt-\(number)"
            let moved = rename(path, aside) == 0
            throw DeviceStorageError(path: path, reason: "not a device state (\(error)); "
                + (moved ? "moved to \(aside)" : "could not be moved aside: \(Self.describe(errno))"))
        }
    }

    public func save(_ state: DeviceState) throws(DeviceStorageError) {
        lock.lock()
        defer { lock.unlock() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(state)) + [0x0A]
        } catch {
            throw DeviceStorageError(path: path, reason: "cannot encode: \(error)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw DeviceStorageError(path: path, reason: "cannot create the directory: \(error)")
            }
        }
        counter += 1
        let temporary = (directory.isEmpty ? "." : directory) + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())-\(counter)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DeviceStorageError(path: path, reason: "cannot create \(temporary): \(Self.describe(errno))") }
        var failure: String?
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = "cannot write \(temporary): \(Self.describe(errno))"
                break
            }
            written += count
        }
        if failure == nil && fsync(fd) != 0 { failure = "cannot flush \(temporary): \(Self.describe(errno))" }
        if close(fd) != 0 && failure == nil { failure = "cannot close \(temporary): \(Self.describe(errno))" }
        if failure == nil && rename(temporary, path) != 0 { failure = "cannot rename over the file: \(Self.describe(errno))" }
        if let failure {
            unlink(temporary)
            throw DeviceStorageError(path: path, reason: failure)
        }
        let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
