import Testing

@testable import ReferenceBackend

/// `BackendStore`'s caps, on the store itself: at a cap expired records are swept first, and only
/// then does a live record make room (the oldest of the client itself at its own cap, else of the
/// client holding the most); identities are never dropped, so past a cap a new one is refused
/// (503); a record that exists is replaced at the cap.
@Suite struct BackendStoreLimitsTests {
    private func registration(_ id: String, expires: Int64) -> RegistrationRecord {
        RegistrationRecord(mpinID: id, userID: id, regOTT: "r", activateKey: "k", active: true, expires: expires)
    }

    @Test func expiredRecordsMakeRoomFirst() async throws {
        let store = BackendStore(capacity: 2)
        try await store.putRegistration(registration("a", expires: 1_000), now: 0)
        try await store.putRegistration(registration("b", expires: 9_000), now: 0)
        // Replacing an existing record is not adding one.
        try await store.putRegistration(registration("b", expires: 9_500), now: 600)
        // Once "a" has expired, it is swept to make room for "c"; "b" stays.
        try await store.putRegistration(registration("c", expires: 9_000), now: 2_000)
        #expect(await store.registration("b", now: 2_000) != nil)
        #expect(await store.counts()["registrations"] == 2)
        // With none expired, the oldest live one goes.
        try await store.putRegistration(registration("d", expires: 9_000), now: 2_500)
        #expect(await store.registration("b", now: 2_500) == nil)
        #expect(await store.registration("c", now: 2_500) != nil)
        #expect(await store.registration("d", now: 2_500) != nil)
    }

    @Test func everyClientStoreMakesRoom() async throws {
        let store = BackendStore(capacity: 1)
        try await store.putPass1(mpinID: "a", Pass1Record(u: [], ut: nil, y: [], expires: 10_000), now: 0)
        try await store.putPass1(mpinID: "b", Pass1Record(u: [], ut: nil, y: [], expires: 10_000), now: 0)
        guard case .none = await store.takePass1(mpinID: "a", now: 0) else {
            Issue.record("pass 1 of a kept over the cap")
            return
        }
        let auth = AuthRecord(mpinID: "a", userID: "a", success: true, expires: 10_000, wid: "", otp: nil)
        try await store.putAuth(authOTT: "x", auth, now: 0)
        try await store.putAuth(authOTT: "y", auth, now: 0)
        guard case .unknown = await store.redeem(authOTT: "x", now: 0, maximumAttempts: 3) else {
            Issue.record("authOTT x kept")
            return
        }
        try await store.putSession(BrowserSession(wid: "1", webOTT: "w1", expires: 10_000), now: 0)
        try await store.putSession(BrowserSession(wid: "2", webOTT: "w2", expires: 10_000), now: 0)
        #expect(await store.session(wid: "1", now: 0) == nil)
        #expect(await store.session(wid: "2", now: 0) != nil)
        try await store.putActivationCode(userID: "a", code: "1", expires: 10_000, now: 0)
        try await store.putActivationCode(userID: "b", code: "1", expires: 10_000, now: 0)
        #expect(await store.redeemActivationCode(userID: "a", code: "1", now: 0) == .none)
        let code = AuthorizationCode(userID: "a", mpinID: "a", clientID: "c", expires: 10_000)
        try await store.putCode("c1", code, now: 0)
        try await store.putCode("c2", code, now: 0)
        #expect(await store.redeemCode("c1", now: 0) == nil)
        #expect(await store.redeemCode("c2", now: 0) != nil)
        // Identities: the second signature is refused and its registration kept for a later try.
        try await store.putRegistration(registration("r1", expires: 10_000), now: 0)
        guard case .ok = await store.consumeRegistration(mpinID: "r1", regOTT: "r", now: 0) else {
            Issue.record("the first identity was refused")
            return
        }
        try await store.putRegistration(registration("r2", expires: 10_000), now: 0)
        guard case .full = await store.consumeRegistration(mpinID: "r2", regOTT: "r", now: 0) else {
            Issue.record("a second identity was issued over the cap of 1")
            return
        }
        #expect(await store.registration("r2", now: 0) != nil)
    }

    /// A client at its own cap of identities is refused a new one; another client is not.
    @Test func identitiesStopAtTheClientsCap() async throws {
        let store = BackendStore(capacity: 10, clientCapacity: 2)
        let one = ClientAddress(peer: try .init(ipAddress: "127.0.0.2", port: 1)),
            two = ClientAddress(peer: try .init(ipAddress: "127.0.0.3", port: 1))
        func sign(_ id: String, _ client: ClientAddress) async throws -> BackendStore.SignatureCheck {
            try await store.putRegistration(registration(id, expires: 10_000), now: 0, client: client)
            return await store.consumeRegistration(mpinID: id, regOTT: "r", now: 0, client: client)
        }
        guard case .ok = try await sign("a", one), case .ok = try await sign("b", one),
            case .full(let error) = try await sign("c", one),
            case .ok = try await sign("d", two)
        else {
            Issue.record("the caps of identities per client")
            return
        }
        #expect(
            error.status == .serviceUnavailable && error.message.contains("2 identities of this client"),
            "\(error.message)")
    }

    @Test func theActivationCodeCountsWrongTries() async throws {
        let store = BackendStore(capacity: 10, activationCodeTries: 3)
        try await store.putActivationCode(userID: "u", code: "12345678", expires: 10_000, now: 0)
        #expect(await store.redeemActivationCode(userID: "u", code: "0", now: 0) == .wrong(left: 2))
        #expect(await store.redeemActivationCode(userID: "u", code: "0", now: 0) == .wrong(left: 1))
        #expect(await store.redeemActivationCode(userID: "u", code: "0", now: 0) == .cancelled)
        #expect(await store.redeemActivationCode(userID: "u", code: "12345678", now: 0) == .none)
    }
    /// A phone login held for the browser on a fresh session `wid`, then the browser's login: its token.
    private func logIn(_ store: BackendStore, wid: String, now: Int64) async throws -> String {
        try await store.putSession(BrowserSession(wid: wid, webOTT: "w" + wid, expires: now + 1_000), now: now)
        try await store.putAuth(
            authOTT: "a" + wid,
            AuthRecord(mpinID: "m", userID: "u", success: true, expires: now + 1_000, wid: wid, otp: nil),
            now: now)
        _ = try #require(
            await store.beginHeldLogin(wid: wid, authOTT: "a" + wid, userID: "u", browserCode: "", now: now))
        return try #require(await store.completeHeldLogin(authOTT: "a" + wid, now: now, makeToken: { "t" + wid }))
            .sessionToken
    }

    /// The demo RPA's logged-in browser sessions: at the cap the one that ends first is forgotten
    /// to make room (a browser login is never refused for it).
    @Test func theOldestBrowserSessionMakesRoom() async throws {
        let store = BackendStore(capacity: 2)
        let first = try await logIn(store, wid: "1", now: 0)
        let second = try await logIn(store, wid: "2", now: 10)
        // An hour and more later the access sessions are swept; the RPA's sessions live a day.
        let third = try await logIn(store, wid: "3", now: 3_700_000)
        #expect(await store.rpaSession(token: first, now: 3_700_000) == nil)
        #expect(await store.rpaSession(token: second, now: 3_700_000) != nil)
        #expect(await store.rpaSession(token: third, now: 3_700_000) != nil)
    }
}
