import MPinSDK
import Testing

/// The time-permit storage (`timePermitsStorageURL`, docs/protocol.md §2, §8.4): the SDK asks
/// `<storage>/<appID>/<date>/<storageId>` for share 2 and, when that fails (404), D-TA 2.
@Suite struct TimePermitStorageTests {
    /// A relative storage URL, as the reference backend gives, is prefixed with the backend URL;
    /// its 404 sends the SDK to D-TA 2.
    @Test func relativeStorageURLThen404FallsBackToTheDTA() async throws {
        let harness = Harness()
        let user = try await harness.registered(settings: Canned.settings(storageURL: "/timePermitsStorage"))
        harness.transport.add([
            Canned.timePermit(),
            .get(
                Canned.backend + "/timePermitsStorage/\(Canned.appID)/\(Canned.date)/\(Canned.hashMPinID)", 404,
                #"{"message":"No time permit in storage"}"#),
            Canned.timePermitDTA(),
        ])
        try await harness.client.startAuthentication(user)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
        #expect(harness.storage.text(.nonSecure)?.contains(Canned.tp2) == true)
    }

    /// No storage URL: straight to D-TA 2.
    @Test func noStorageURLAsksTheDTA() async throws {
        let harness = Harness()
        let user = try await harness.registered(settings: Canned.settings(storageURL: ""))
        harness.transport.add([Canned.timePermit(), Canned.timePermitDTA()])
        try await harness.client.startAuthentication(user)
        #expect(harness.transport.remaining == 0)
        #expect(harness.transport.problems.isEmpty)
    }
}
