import Foundation
import MPinCrypto
@testable import ReferenceBackend
import Testing

/// `GET /rps/timePermit/<mpinId>`: share 1 is made once per ID and day and kept by the RPS, as the
/// open-source RPS keeps the shares it fetches from its D-TA (PROTOCOL §8.2); the answer is D-TA 1's
/// share for the day whether it was kept or made, and revocation is checked first either way.
@Suite struct TimePermitTests {
    /// 2026-01-01 12:00 UTC, in milliseconds.
    static let noon: Int64 = 1_767_268_800_000

    @Test func shareOneIsKeptPerDayAndIsTheDTAsShare() async throws {
        let clock = ManualBackendClock(milliseconds: Self.noon)
        let harness = try await BackendHarness.start(clock: clock)
        defer { Task { await harness.stop() } }
        let core = harness.backend.core
        let identity = try await harness.rawRegister("tess")
        let today = MPin.today(unixTime: Self.noon / 1000)
        #expect(await core.store.timePermitShare(identity.mpinID, date: today) == nil)

        let first = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        let hash = core.mpin.hashID(Hex.decode(identity.mpinID)!)
        let expected = core.dta1.timePermitShare(hashMpinID: hash, date: today)
        #expect(first.status == 200 && first.json["date"] as? Int == Int(today))
        #expect(first.string("timePermit") == Hex.encode(expected))
        #expect(await core.store.timePermitShare(identity.mpinID, date: today) == expected, "not kept")

        // A kept share is what the next answer carries.
        let marker = [UInt8](repeating: 0xAB, count: expected.count)
        await core.store.keepTimePermitShare(identity.mpinID, date: today, marker)
        let second = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        #expect(second.string("timePermit") == Hex.encode(marker), "made again instead of taken from the store")

        // The next day's share is made for that day and replaces the kept one.
        clock.advance(seconds: 86_400)
        let next = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        let tomorrow = today + 1
        #expect(next.json["date"] as? Int == Int(tomorrow))
        #expect(next.string("timePermit") == Hex.encode(core.dta1.timePermitShare(hashMpinID: hash, date: tomorrow)))
        #expect(await core.store.timePermitShare(identity.mpinID, date: today) == nil)
    }

    @Test func aRevokedUserIsRefusedThoughItsShareIsKept() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("uma")
        #expect(try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)").status == 200)
        await harness.backend.revoke(userID: "uma")
        #expect(try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)").status == 410)
    }
}
