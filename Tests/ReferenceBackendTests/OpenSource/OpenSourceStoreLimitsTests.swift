import Testing

@testable import ReferenceBackend

/// The `milagro-oss` profile's store is capped as the workbench's is, but without an answer the
/// open-source server never gives: at the cap a new item replaces the oldest of its kind. Before, its registrations, pass-1 records and auth items grew without end.
@Suite struct OpenSourceStoreLimitsTests {
    private func registration(_ mpinID: String, _ expires: Int64) -> OpenSourceStore.Registration {
        OpenSourceStore.Registration(mpinID: mpinID, regOTT: .string("r"), active: nil, expires: expires, userID: "u")
    }

    @Test func aNewRegistrationReplacesTheOldest() async {
        let store = OpenSourceStore(capacity: 2)
        await store.putRegistration(registration("a", 5_000), now: 0)
        await store.putRegistration(registration("b", 1_000), now: 0)
        await store.putRegistration(registration("a", 6_000), now: 0)
        #expect(await store.registration("b", now: 0) != nil, "replacing a kept item dropped another")
        await store.putRegistration(registration("c", 9_000), now: 0)
        #expect(await store.registration("b", now: 0) == nil)
        #expect(await store.registration("a", now: 0) != nil)
        #expect(await store.registration("c", now: 0) != nil)
    }

    @Test func aNewAuthItemReplacesTheOldest() async {
        let store = OpenSourceStore(capacity: 2)
        for wid in ["1", "2", "3"] {
            await store.addAuth(
                OpenSourceStore.AuthItem(expires: 10_000, webOTT: .string("w" + wid), wid: .string(wid)), now: 0)
        }
        #expect(await store.findAuth(.wid(.string("1")), now: 0) == nil)
        #expect(await store.findAuth(.webOTT(.string("w1")), now: 0) == nil)
        #expect(await store.findAuth(.wid(.string("2")), now: 0) != nil)
        #expect(await store.findAuth(.wid(.string("3")), now: 0) != nil)
    }

    @Test func passOneRecordsSessionsAndAttemptsAreCapped() async {
        let store = OpenSourceStore(capacity: 1)
        await store.putPass1("a", OpenSourceStore.Pass1(u: .none, ut: .none, y: [], expires: 1), now: 0)
        await store.putPass1("b", OpenSourceStore.Pass1(u: .none, ut: .none, y: [], expires: 1), now: 0)
        #expect(await store.pass1("a", now: 0) == nil)
        #expect(await store.pass1("b", now: 0) != nil)
        await store.logIn("s1", userID: "u")
        await store.logIn("s2", userID: "u")
        #expect(await store.loggedUser("s1") == nil)
        #expect(await store.loggedUser("s2") == "u")
        await store.setAttempts("a", 1)
        await store.setAttempts("b", 2)
        #expect(await store.attempts("a") == 0)
        #expect(await store.attempts("b") == 2)
    }
}
