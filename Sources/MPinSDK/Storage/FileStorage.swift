import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Storage in two files of a directory the caller names: `secure-storage.json` and `storage.json`.
///
/// * The directory is created (mode 0700) when missing; files have mode 0600.
/// * Writes go through `AtomicFile`: the text goes to a new temporary file in the same directory,
///   which is flushed (`fsync`) and then renamed over the old file, so a crash leaves either the old
///   or the new text, never a mix; a symbolic link is written through, and a path that is not a
///   regular file (a FIFO, a device, a directory) is refused with the reason.
/// * Reads go through `InputFile` (bounded in size and in waiting).
/// * `moveAside` renames a file to `<name>.corrupt-<n>` (the first free n from 1), so nothing is
///   ever silently overwritten.
public final class FileStorage: SDKStorage, @unchecked Sendable {
    public let directory: String
    private let names: [StorageKind: String]

    public init(
        directory: String, secureFileName: String = "secure-storage.json",
        nonSecureFileName: String = "storage.json"
    ) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.names = [.secure: secureFileName, .nonSecure: nonSecureFileName]
    }

    public func location(of kind: StorageKind) -> String {
        directory + "/" + names[kind]!
    }

    public func read(_ kind: StorageKind) throws(StorageError) -> String? {
        let path = location(of: kind)
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path)
        } catch {
            if case .missing = error.kind { return nil }
            throw StorageError(kind: kind, path: path, reason: "\(error.action): \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw StorageError(kind: kind, path: path, reason: "not UTF-8 text")
        }
        return text
    }

    public func write(_ kind: StorageKind, _ text: String) throws(StorageError) {
        let path = location(of: kind)
        try ensureDirectory(kind)
        do {
            try AtomicFile.write(Array(text.utf8), to: path, options: .init(newFileMode: 0o600, fixedMode: 0o600))
        } catch {
            throw StorageError(kind: kind, path: path, reason: "\(error.action): \(error.reason)")
        }
    }

    public func moveAside(_ kind: StorageKind) throws(StorageError) -> String {
        let path = location(of: kind)
        var number = 1
        while access(path + ".corrupt-\(number)", F_OK) == 0 { number += 1 }
        let target = path + ".corrupt-\(number)"
        guard rename(path, target) == 0 else {
            throw StorageError(
                kind: kind, path: path, reason: "cannot move aside to \(target): " + Self.describe(errno))
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
                throw StorageError(
                    kind: kind, path: location(of: kind),
                    reason: "cannot create directory \(prefix): " + Self.describe(errno))
            }
        }
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
