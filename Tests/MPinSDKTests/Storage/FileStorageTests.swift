import Foundation
import MPinSDK
import TestSupport
import Testing

@Suite struct FileStorageTests {
    /// A folder that does not exist yet, below one that does not either.
    func temporaryDirectory() -> String { TemporaryDirectory.unusedPath("mpin-sdk-tests") + "/nested" }

    @Test func roundTripCreatesDirectoryAndPrivateFiles() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let storage = FileStorage(directory: directory)
        #expect(try storage.read(.secure) == nil)
        try storage.write(.secure, "{\"a\": 1}")
        try storage.write(.nonSecure, "héllo")
        #expect(try storage.read(.secure) == "{\"a\": 1}")
        #expect(try storage.read(.nonSecure) == "héllo")
        let attributes = try FileManager.default.attributesOfItem(atPath: storage.location(of: .secure))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
                "secure-storage.json", "storage.json",
            ])
    }

    /// The new text replaces the file by rename: a reader holding the old file still sees the old
    /// text whole, and no temporary file is left behind.
    @Test func writesReplaceTheFileAtomically() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let storage = FileStorage(directory: directory)
        try storage.write(.nonSecure, "old text")
        let reader = try #require(FileHandle(forReadingAtPath: storage.location(of: .nonSecure)))
        defer { try? reader.close() }
        try storage.write(.nonSecure, String(repeating: "new ", count: 10000))
        #expect(String(decoding: reader.readDataToEndOfFile(), as: UTF8.self) == "old text")
        #expect(try storage.read(.nonSecure) == String(repeating: "new ", count: 10000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["storage.json"])
    }

    @Test func moveAsideKeepsEveryCopy() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let storage = FileStorage(directory: directory)
        try storage.write(.secure, "first")
        #expect(try storage.moveAside(.secure) == storage.location(of: .secure) + ".corrupt-1")
        try storage.write(.secure, "second")
        #expect(try storage.moveAside(.secure) == storage.location(of: .secure) + ".corrupt-2")
        #expect(try storage.read(.secure) == nil)
        #expect(try String(contentsOfFile: storage.location(of: .secure) + ".corrupt-1", encoding: .utf8) == "first")
        #expect(throws: StorageError.self) { try storage.moveAside(.secure) }
    }

    @Test func writesThroughASymbolicLinkAndRefusesWhatIsNotAFile() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let storage = FileStorage(directory: directory)
        try "old".write(toFile: directory + "/kept.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: storage.location(of: .secure), withDestinationPath: "kept.json")
        try storage.write(.secure, "{\"a\": 2}")
        #expect(try String(contentsOfFile: directory + "/kept.json", encoding: .utf8) == "{\"a\": 2}")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: storage.location(of: .secure)) == "kept.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/kept.json")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(mkfifo(storage.location(of: .nonSecure), 0o600) == 0)
        let error = #expect(throws: StorageError.self) { try storage.write(.nonSecure, "{}") }
        #expect(error?.reason == "cannot write: is a FIFO (named pipe), not a regular file; refusing to replace it")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
                "kept.json", "secure-storage.json", "storage.json",
            ])
    }

    @Test func unreadableLocationIsAnErrorWithPathAndReason() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let storage = FileStorage(directory: directory)
        try FileManager.default.createDirectory(
            atPath: storage.location(of: .nonSecure), withIntermediateDirectories: true)
        do {
            _ = try storage.read(.nonSecure)
            Issue.record("expected a read error")
        } catch {
            #expect(error.path == storage.location(of: .nonSecure))
            #expect(error.reason.contains("directory"))
        }
        #expect(throws: StorageError.self) { try storage.write(.nonSecure, "x") }
    }
}
