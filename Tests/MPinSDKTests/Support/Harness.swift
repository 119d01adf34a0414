import Foundation
import MPinSDK
import TestSupport

/// A client wired to a scripted transport, memory storage, counting random bytes, a fixed clock
/// and an event log.
struct Harness {
    let transport: ScriptedTransport
    let storage: MemoryStorage
    let log = EventLog()
    let client: MPinClient

    init(
        _ steps: [ScriptedTransport.Step] = [], storage: MemoryStorage = MemoryStorage(),
        options: MPinClient.Options = .init(pinMapping: .legacyStringHash)
    ) {
        transport = ScriptedTransport(steps)
        self.storage = storage
        client = MPinClient(
            transport: transport, storage: storage, random: CountingRandom(), clock: FixedClock(),
            observer: log, options: options)
    }

    /// Initializes with the canned backend (one clientSettings request).
    func start(settings: String = Canned.settings()) async throws {
        transport.add([Canned.clientSettings(settings)])
        try await client.initialize(configuration: ["backend": Canned.backend])
    }

    /// Starts, then registers `testUser` with PIN 1234 (active at once).
    func registered(settings: String = Canned.settings()) async throws -> User {
        try await start(settings: settings)
        transport.add(Canned.registration)
        let user = try await client.makeNewUser(id: Canned.userID, deviceName: "Phone")
        try await client.startRegistration(user)
        try await client.confirmRegistration(user)
        try await client.finishRegistration(user, pin: "1234")
        return user
    }

    /// The request bodies as text, in order.
    var bodies: [String] { transport.requests.map { String(decoding: $0.body, as: UTF8.self) } }
}

/// Runs `body` and returns the MPinError it throws (nil when it does not throw).
func mpinError(_ body: () async throws(MPinError) -> Void) async -> MPinError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
