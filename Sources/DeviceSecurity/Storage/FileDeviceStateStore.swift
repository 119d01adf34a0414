import FileAccess
import Foundation
import OrderedJSON
import Synchronization

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
/// * A write goes through `AtomicFile`: a new temporary file in the same directory, flushed
///   (`fsync`) and renamed over the old file, then the directory is flushed: a crash leaves the old
///   or the new state, never a mix; a symbolic link is written through, a path that is not a
///   regular file is refused with the reason.
/// * A file that is not a readable state (a repeated member name included) is moved aside to `<path>.corrupt-<n>` (the first free n
///   from 1) and reported as a `DeviceStorageError` naming where it went: the device starts afresh
///   and nothing is ever overwritten unseen.
public final class FileDeviceStateStore: DeviceStateStore, Sendable {
    public let path: String
    /// Held while the file is read or written, so that a load never sees half a save.
    private let access = Mutex(())

    public init(path: String) {
        self.path = path
    }

    /// A store at `directory/devicesecurity.json`.
    public convenience init(directory: String) {
        self.init(path: (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/devicesecurity.json")
    }

    public func load() throws(DeviceStorageError) -> DeviceState? {
        try access.withLock { _ throws(DeviceStorageError) in try loadFile() }
    }

    public func save(_ state: DeviceState) throws(DeviceStorageError) {
        try access.withLock { _ throws(DeviceStorageError) in try saveFile(state) }
    }

    private func loadFile() throws(DeviceStorageError) -> DeviceState? {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: Self.maximumSize)
        } catch {
            if case .missing = error.kind { return nil }
            throw DeviceStorageError(path: path, reason: "\(error.action): \(error.reason)")
        }
        do {
            // OrderedJSON first: a repeated member name (which the decoder would take one of) is refused.
            _ = try JSONParser.parse(bytes)
            let state = try JSONDecoder().decode(DeviceState.self, from: Data(bytes))
            // Numbers out of range (a time far before 1970, a negative borrow time) make it no state either.
            if let problem = state.problem { throw DeviceStateOutOfRange(description: problem) }
            return state
        } catch {
            var number = 1
            while FileManager.default.fileExists(atPath: path + ".corrupt-\(number)") { number += 1 }
            let aside = path + ".corrupt-\(number)"
            let moved = rename(path, aside) == 0
            throw DeviceStorageError(
                path: path,
                reason: "not a device state (\(error)); "
                    + (moved ? "moved to \(aside)" : "could not be moved aside: \(Self.describe(errno))"))
        }
    }

    private func saveFile(_ state: DeviceState) throws(DeviceStorageError) {
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
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw DeviceStorageError(path: path, reason: "cannot create the directory: \(error)")
            }
        }
        do {
            try AtomicFile.write(bytes, to: path, options: .init(newFileMode: 0o600, fixedMode: 0o600))
        } catch {
            throw DeviceStorageError(path: path, reason: "\(error.action): \(error.reason)")
        }
    }

    /// The largest state file read (a device state is a few hundred bytes).
    static let maximumSize = 1 << 20

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A decoded device state whose numbers are out of range (`DeviceState.problem`).
private struct DeviceStateOutOfRange: Error, CustomStringConvertible {
    var description: String
}
