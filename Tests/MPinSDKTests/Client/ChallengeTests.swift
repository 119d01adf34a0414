import MPinCrypto
import Testing

@testable import MPinSDK

/// Pass 1's y is refused unless it is a scalar of the group, 0 < y < r (docs/protocol.md §6.4), so
/// that a hostile server cannot choose the multiple of SEC that pass 2 sends. Before, any y was
/// reduced mod r and used (y = 0 gave V = −x·SEC).
@Suite struct ChallengeTests {
    static let order = MPin(curve: .bn254cx).groupOrder

    @Test func onlyScalarsOfTheGroupAreChallenges() {
        var below = Self.order
        below[below.count - 1] -= 1
        #expect(MPinClient.isChallenge([1], below: Self.order))
        #expect(MPinClient.isChallenge([0, 0, 7], below: Self.order))
        #expect(MPinClient.isChallenge(below, below: Self.order))
        #expect(!MPinClient.isChallenge([], below: Self.order))
        #expect(!MPinClient.isChallenge([0, 0, 0], below: Self.order))
        #expect(!MPinClient.isChallenge(Self.order, below: Self.order))
        #expect(!MPinClient.isChallenge([UInt8](repeating: 0xff, count: 32), below: Self.order))
        #expect(!MPinClient.isChallenge([1] + [UInt8](repeating: 0, count: 32), below: Self.order))
    }
}
