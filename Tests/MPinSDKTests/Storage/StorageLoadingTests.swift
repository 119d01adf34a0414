import Foundation
import MPinSDK
import TestSupport
import Testing

@Suite struct StorageLoadingTests {
    @Test func registeredUserSurvivesARestart() async throws {
        let directory = TemporaryDirectory.unusedPath("mpin-sdk-tests")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = Harness(storage: MemoryStorage())
        let fileStorage = FileStorage(directory: directory)
        let first = MPinClient(
            transport: harness.transport, storage: fileStorage, random: CountingRandom(), clock: FixedClock(),
            options: .init(pinMapping: .legacyStringHash))
        harness.transport.add([Canned.clientSettings()] + Canned.registration)
        try await first.initialize(configuration: ["backend": Canned.backend])
        let user = try await first.makeNewUser(id: Canned.userID, deviceName: "Phone")
        try await first.startRegistration(user)
        try await first.confirmRegistration(user)
        try await first.finishRegistration(user, pin: "1234")

        let secure = try #require(try fileStorage.read(.secure))
        #expect(secure.contains("\"token\""))
        #expect(!secure.contains("regOTT"))
        let nonSecure = try #require(try fileStorage.read(.nonSecure))
        #expect(nonSecure.contains("\"version\" : 1"))
        #expect(!nonSecure.contains("token"))

        let second = MPinClient(
            transport: harness.transport, storage: fileStorage, options: .init(pinMapping: .legacyStringHash))
        try await second.initialize(configuration: [:])
        let users = try await second.listAllUsers()
        #expect(users.map(\.id) == [Canned.userID])
        #expect(users.first?.state == .registered)
        #expect(users.first?.deviceName == "Phone")
        #expect(users.first?.mpinID == Canned.mpinID)
        #expect(users.first?.backend == Canned.backendKey)
        #expect(try await second.listBackends() == [Canned.backendKey])
    }

    @Test(arguments: ["{not json", "[1, 2]", "{\"version\": 2, \"data\": {}}", "{\"version\": 1}"])
    func corruptNonSecureFileIsMovedAsideAndReported(text: String) async throws {
        let directory = TemporaryDirectory.unusedPath("mpin-sdk-tests")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = FileStorage(directory: directory)
        try storage.write(.nonSecure, text)
        let client = MPinClient(transport: ScriptedTransport(), storage: storage)
        let error = await mpinError { () async throws(MPinError) in try await client.initialize(configuration: [:]) }
        #expect(error?.code == .storageError)
        #expect(error?.context.path == storage.location(of: .nonSecure))
        #expect(error?.message.contains(storage.location(of: .nonSecure)) == true)
        #expect(error?.message.contains("corrupt-1") == true)
        #expect(try String(contentsOfFile: storage.location(of: .nonSecure) + ".corrupt-1", encoding: .utf8) == text)
        #expect(try storage.read(.nonSecure) == nil)
        #expect(!(await client.isInitialized))
        // The next start finds no file and works.
        try await client.initialize(configuration: [:])
        #expect(try await client.listAllUsers().isEmpty)
    }

    @Test func invalidUTF8IsCorrupt() async throws {
        let directory = TemporaryDirectory.unusedPath("mpin-sdk-tests")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let storage = FileStorage(directory: directory)
        try storage.write(.secure, "x")
        try Data([0xff, 0xfe, 0x00]).write(to: URL(fileURLWithPath: storage.location(of: .secure)))
        let client = MPinClient(transport: ScriptedTransport(), storage: storage)
        let error = await mpinError { () async throws(MPinError) in try await client.initialize(configuration: [:]) }
        #expect(error?.code == .storageError)
        #expect(error?.message.contains("not UTF-8") == true)
        #expect(FileManager.default.fileExists(atPath: storage.location(of: .secure) + ".corrupt-1"))
    }

    /// docs/protocol.md §7.1: a user registering needs its regOTT; a registered one must not have one.
    @Test(arguments: [
        ("ACTIVATED", "{}"), ("STARTED_REGISTRATION", "{\"token\": \"04\"}"), ("REGISTERED", "{\"regOTT\": \"aa\"}"),
        ("INVALID", "{}"), ("SOMETHING", "{}"),
    ])
    func inconsistentStatesAreStorageErrors(state: String, secrets: String) async throws {
        let storage = MemoryStorage(
            secure: "{\"version\": 1, \"data\": {\"\(Canned.mpinID)\": \(secrets)}}",
            nonSecure:
                "{\"version\": 1, \"data\": {\"\(Canned.mpinID)\": {\"id\": \"u\", \"backend\": \"b\", \"state\": \"\(state)\"}}}"
        )
        let client = MPinClient(transport: ScriptedTransport(), storage: storage)
        let error = await mpinError { () async throws(MPinError) in try await client.initialize(configuration: [:]) }
        #expect(error?.code == .storageError)
        #expect(!storage.movedAside(.secure).isEmpty || !storage.movedAside(.nonSecure).isEmpty)
    }

    /// Found by the storage fuzz target: a user stored under an empty M-Pin ID was loaded, then
    /// silently dropped by the next save (`encode` keeps no user without one). It is refused instead.
    @Test(arguments: [
        "{\"version\": 1, \"data\": {\"\": {\"id\": \"bob\", \"backend\": \"127.0.0.1:8005\", \"state\": \"REGISTERED\"}}}",
        "{\"127.0.0.1:8005\": {\"\": {\"state\": \"REGISTERED\"}}}",
    ])
    func aUserWithoutAnMPinIDIsAStorageError(nonSecure: String) async throws {
        let storage = MemoryStorage(
            secure: "{\"version\": 1, \"data\": {\"\": {\"token\": \"04\"}}}", nonSecure: nonSecure)
        let client = MPinClient(transport: ScriptedTransport(), storage: storage)
        let error = await mpinError { () async throws(MPinError) in try await client.initialize(configuration: [:]) }
        #expect(error?.code == .storageError)
        #expect(error?.message.contains("empty M-Pin ID") == true)
        #expect(storage.movedAside(.nonSecure) == [nonSecure])
    }

    /// The Milagro core 2.2 layout (docs/protocol.md §7.2) is read; the id comes from the M-Pin ID.
    @Test func readsTheLegacyLayoutAndWritesVersion1() async throws {
        let storage = MemoryStorage(
            secure: "{\"\(Canned.mpinID)\": {\"token\": \"\(Canned.token1234Legacy)\"}}",
            nonSecure:
                "{\"10.10.40.62:8005\": {\"\(Canned.mpinID)\": {\"timePermitCache\": {\"date\": 17085, \"timePermit\": \"\(Canned.tp2)\"}, \"state\": \"REGISTERED\"}}}"
        )
        let harness = Harness(storage: storage)
        try await harness.client.initialize(configuration: [:])
        let users = try await harness.client.listUsers(backend: "http://10.10.40.62:8005/")
        #expect(users.map(\.id) == ["testUser"])
        #expect(users.first?.state == .registered)
        try await harness.client.deleteUser(try #require(users.first))
        #expect(storage.text(.nonSecure)?.contains("\"version\" : 1") == true)
        #expect(storage.text(.secure)?.contains(Canned.mpinID) == false)
    }
}
