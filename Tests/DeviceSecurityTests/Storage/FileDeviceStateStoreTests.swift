import DeviceSecurity
import Foundation
import SDKSeams
import TestSupport
import Testing

@Suite struct FileDeviceStateStoreTests {
    func temporaryDirectory() -> String { TemporaryDirectory.unusedPath("devicesecurity-tests") }

    @Test func missingFileIsNoState() throws {
        let store = FileDeviceStateStore(directory: temporaryDirectory())
        #expect(try store.load() == nil)
    }

    @Test func saveThenLoadRoundTrips() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileDeviceStateStore(directory: directory + "/nested")
        var state = DeviceState()
        state.deviceID = "00112233445566778899aabbccddeeff"
        state.deviceHash = "hash"
        state.deviceBorrowTime = 3600
        state.deviceConfirmedAt = 1_767_225_600_000
        state.applications["app"] = .init(grantedAt: 1_767_225_600_000, borrowTime: 600)
        try store.save(state)
        #expect(try store.load() == state)
        #expect(try FileDeviceStateStore(path: store.path).load() == state)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.hasSuffix("}\n"))
    }

    @Test func writesReplaceAtomicallyAndLeaveNoTemporaryFiles() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileDeviceStateStore(directory: directory)
        for index in 0..<20 {
            var state = DeviceState()
            state.deviceHash = "hash-\(index)"
            try store.save(state)
        }
        #expect(try store.load()?.deviceHash == "hash-19")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["devicesecurity.json"])
    }

    @Test func aRepeatedMemberNameIsNotAState() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = FileDeviceStateStore(directory: directory)
        try "{\n  \"deviceHash\": \"a\",\n  \"deviceHash\": \"b\"\n}\n".write(
            toFile: store.path, atomically: true, encoding: .utf8)
        let error = #expect(throws: DeviceStorageError.self) { try store.load() }
        #expect(
            error?.reason.contains(
                "repeated member name \"deviceHash\" at $.deviceHash: first at line 2, column 3, again at line 3, column 3"
            )
                == true, "\(String(describing: error))")
        #expect(error?.reason.contains("moved to \(store.path).corrupt-1") == true)
    }

    @Test func aSymbolicLinkIsWrittenThroughAndAFIFOIsRefused() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "{}".write(toFile: directory + "/real.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/devicesecurity.json", withDestinationPath: "real.json")
        var state = DeviceState()
        state.deviceHash = "through"
        try FileDeviceStateStore(directory: directory).save(state)
        #expect(try FileDeviceStateStore(path: directory + "/real.json").load()?.deviceHash == "through")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/devicesecurity.json") == "real.json"
        )
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        let error = #expect(throws: DeviceStorageError.self) {
            try FileDeviceStateStore(path: directory + "/fifo").save(state)
        }
        #expect(error?.reason == "cannot write: is a FIFO (named pipe), not a regular file; refusing to replace it")
    }

    @Test func unreadableContentsAreAnErrorAndAreKept() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = FileDeviceStateStore(directory: directory)
        try "not json".write(toFile: store.path, atomically: true, encoding: .utf8)
        let error = #expect(throws: DeviceStorageError.self) { try store.load() }
        #expect(error?.reason.contains("moved to \(store.path).corrupt-1") == true)
        #expect(try String(contentsOfFile: store.path + ".corrupt-1", encoding: .utf8) == "not json")
        #expect(try store.load() == nil)
        try "still not json".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(throws: DeviceStorageError.self) { try store.load() }
        #expect(try String(contentsOfFile: store.path + ".corrupt-2", encoding: .utf8) == "still not json")
    }

    @Test func aConnectorOverAnUnreadableFileStartsAfreshAndReportsIt() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = FileDeviceStateStore(directory: directory)
        try "{\"version\": \"one\"}".write(toFile: store.path, atomically: true, encoding: .utf8)
        let log = EventLog()
        let device = DeviceSecurity(
            serviceURL: "http://service.test/devicesecurity", transport: FakeService(clock: ManualClock()),
            store: store, clock: ManualClock(), observer: log)
        #expect(await device.deviceHash == nil)
        let failure = log.notes.first { $0.name == "storageFailure" }
        #expect(failure?.values.value(named: "path") == store.path)
        #expect(failure?.values.value(named: "reason")?.isEmpty == false)
        #expect(FileManager.default.fileExists(atPath: store.path + ".corrupt-1"))
    }

    @Test func aFailedWriteKeepsThePreviousState() throws {
        let directory = temporaryDirectory()
        defer {
            chmod(directory, 0o700)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let store = FileDeviceStateStore(directory: directory)
        var state = DeviceState()
        state.deviceHash = "first"
        try store.save(state)
        guard getuid() != 0 else { return }  // root writes anywhere
        chmod(directory, 0o500)
        state.deviceHash = "second"
        #expect(throws: DeviceStorageError.self) { try store.save(state) }
        #expect(try store.load()?.deviceHash == "first")
    }
}
