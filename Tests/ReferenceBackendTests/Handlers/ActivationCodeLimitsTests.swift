import Testing

@testable import ReferenceBackend

/// Issuing activation codes is rate limited per user and per client, and a user's wrong codes are
/// counted across new codes: a new code does not bring new guesses. On the backend's clock
/// (`ManualBackendClock` here). Before, `POST /activationCode` issued (and mailed) codes without
/// limit, 3 wrong tries per code: one client could try 892 codes a second.
@Suite struct ActivationCodeLimitsTests {
    private let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)

    @Test func codesForOneUserAreRateLimited() async throws {
        let core = BackendCore.testCore(activation: .code, clock: clock)
        let client = try CoreClient(core, address: "127.0.0.2")
        let limit = core.configuration.activationCodesPerUser
        for _ in 0..<limit.burst { #expect(await client.requestCode("eve").status == 200) }
        let refused = await client.requestCode("eve")
        #expect(refused.status == 429, "\(refused.body)")
        // No mail for a refused request.
        #expect(await core.store.mailbox.filter { $0.userID == "eve" }.count == limit.burst)
        // Another client asking for the same user is refused too: the limit is the user's.
        #expect(try await CoreClient(core, address: "127.0.0.3").requestCode("eve").status == 429)
        clock.advance(seconds: limit.seconds)
        #expect(await client.requestCode("eve").status == 200)
        #expect(await client.requestCode("eve").status == 429)
    }

    @Test func codesFromOneClientAreRateLimitedAcrossUsers() async throws {
        let core = BackendCore.testCore(activation: .code, clock: clock)
        let flooder = try CoreClient(core, address: "127.0.0.2")
        let limit = core.configuration.activationCodesPerClient
        var granted = 0
        for index in 0..<(limit.burst + 50) where await flooder.requestCode("user\(index)").status == 200 {
            granted += 1
        }
        #expect(granted == limit.burst)
        // Another client is not limited by the first one's requests.
        #expect(try await CoreClient(core, address: "127.0.0.3").requestCode("someone").status == 200)
        clock.advance(seconds: limit.seconds)
        #expect(await flooder.requestCode("later").status == 200)
    }

    @Test func wrongCodesAreCappedAcrossNewCodes() async throws {
        let core = BackendCore.testCore(activation: .code, clock: clock)
        let client = try CoreClient(core, address: "127.0.0.2")
        let cap = core.configuration.wrongActivationCodesPerUser
        var wrong = 0
        var lastCode = ""
        // New codes as often as the per-user limit lets, each tried wrong until it is cancelled:
        // the user's wrong tries stop at the cap, whatever the number of codes.
        for _ in 0..<40 where wrong < cap.burst {
            if await client.requestCode("eve").status != 200 {
                clock.advance(seconds: core.configuration.activationCodesPerUser.seconds)
                continue
            }
            lastCode = try #require(await core.store.mailbox.last { $0.userID == "eve" }).value
            let wrongCode = lastCode == "00000000" ? "00000001" : "00000000"
            for _ in 0..<core.configuration.activationCodeTries where wrong < cap.burst {
                #expect(await client.register("eve", code: wrongCode).status == 403)
                wrong += 1
            }
        }
        #expect(wrong == cap.burst)
        // Past the cap every try is refused, the right code too, and a new code does not help.
        let refused = await client.register("eve", code: lastCode)
        #expect(refused.status == 429, "\(refused.body)")
        clock.advance(seconds: core.configuration.activationCodesPerUser.seconds)
        #expect(await client.requestCode("eve").status == 200)
        let fresh = try #require(await core.store.mailbox.last { $0.userID == "eve" }).value
        #expect(await client.register("eve", code: fresh).status == 429)
        // Once the cap has room again the code works.
        clock.advance(seconds: cap.seconds)
        #expect(await client.register("eve", code: fresh).status == 200)
    }
}
