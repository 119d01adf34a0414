import Foundation
import MPinCrypto
import Testing

@testable import ReferenceBackend

/// `GET /rps/timePermit/<mpinId>`: as the open-source RPS does (docs/protocol.md §8.2), share 1 comes from
/// the days the RPS keeps, and when today is not among them it fetches D-TA 1's shares for 7 to 13
/// days from today; the answer is D-TA 1's share for the day whether it was kept or fetched, and
/// revocation is checked first either way.
@Suite struct TimePermitTests {
    /// 2026-01-01 12:00 UTC, in milliseconds.
    static let noon: Int64 = 1_767_268_800_000

    @Test func shareOneIsFetchedForSevenToThirteenDaysAndKept() async throws {
        let clock = ManualBackendClock(milliseconds: Self.noon)
        let harness = try await BackendHarness.start(clock: clock)
        defer { Task { await harness.stop() } }
        let core = harness.backend.core
        let identity = try await harness.rawRegister("tess")
        let today = MPin.today(unixTime: Self.noon / 1000)
        let hash = core.mpin.hashID(Hex.decode(identity.mpinID)!)
        #expect(await core.store.keptTimePermitDays(identity.mpinID) == nil)

        let first = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        #expect(first.status == 200 && first.json["date"] as? Int == Int(today))
        #expect(first.string("timePermit") == Hex.encode(core.dta1.timePermitShare(hashMpinID: hash, date: today)))
        let days = try #require(await core.store.keptTimePermitDays(identity.mpinID), "nothing kept")
        #expect(days.lowerBound == today)
        #expect(BackendCore.timePermitDayCounts.contains(days.count), "kept \(days.count) days")
        for day in days {
            #expect(
                await core.store.timePermitShare(identity.mpinID, date: day)
                    == core.dta1.timePermitShare(hashMpinID: hash, date: day),
                "day \(day) kept wrong")
        }

        // A later day within the run is answered from the kept shares, not fetched again.
        let marker = [UInt8](repeating: 0xAB, count: 65)
        var marked = days.map { core.dta1.timePermitShare(hashMpinID: hash, date: $0) }
        marked[days.count - 1] = marker
        await core.store.keepTimePermitShares(identity.mpinID, from: today, marked)
        clock.advance(seconds: 86_400 * Double(days.count - 1))
        let last = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        #expect(last.json["date"] as? Int == Int(days.upperBound - 1))
        #expect(last.string("timePermit") == Hex.encode(marker), "fetched again instead of taken from the kept days")
        #expect(await core.store.keptTimePermitDays(identity.mpinID) == days)

        // The day after the run fetches a new run from that day, in place of the old one.
        clock.advance(seconds: 86_400)
        let after = try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)")
        #expect(after.json["date"] as? Int == Int(days.upperBound))
        #expect(
            after.string("timePermit") == Hex.encode(core.dta1.timePermitShare(hashMpinID: hash, date: days.upperBound))
        )
        let next = try #require(await core.store.keptTimePermitDays(identity.mpinID))
        #expect(next.lowerBound == days.upperBound && BackendCore.timePermitDayCounts.contains(next.count))
        #expect(await core.store.timePermitShare(identity.mpinID, date: today) == nil)
    }

    /// The count is drawn from a stream of its own: it follows the seed and differs between seeds.
    @Test func theDayCountFollowsTheSeed() {
        func counts(_ seed: String) -> [Int] {
            let days = BackendRandom(seed: seed, stream: "time-permit days")
            return (0..<8).map { _ in BackendCore.timePermitDayCounts.lowerBound + Int(days.uniform(7)) }
        }
        #expect(counts("bench") == counts("bench"))
        let seen = Set((0..<20).flatMap { counts("seed \($0)") })
        #expect(seen == Set(BackendCore.timePermitDayCounts), "counts drawn: \(seen.sorted())")
        #expect(BackendRandom(seed: "s").bytes(32) != BackendRandom(seed: "s", stream: "time-permit days").bytes(32))
    }

    /// Fetching the days leaves the main stream where it was: the random values drawn after a time
    /// permit are those drawn without one, so recorded answers do not move.
    @Test func fetchingTheDaysDrawsNothingFromTheMainStream() async throws {
        func nextMainDraw(askingForATimePermit: Bool) async throws -> [UInt8] {
            let harness = try await BackendHarness.start(clock: ManualBackendClock(milliseconds: Self.noon))
            defer { Task { await harness.stop() } }
            let identity = try await harness.rawRegister("vic")
            if askingForATimePermit {
                #expect(try await harness.send(.get, "/rps/timePermit/\(identity.mpinID)").status == 200)
                #expect(await harness.backend.core.store.keptTimePermitDays(identity.mpinID) != nil)
            }
            return harness.backend.core.random.bytes(32)
        }
        #expect(try await nextMainDraw(askingForATimePermit: true) == nextMainDraw(askingForATimePermit: false))
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
