import NIOCore
import Testing

@testable import ReferenceBackend

/// `ClientQuotaTable` on its own: the client's own oldest record makes room at its cap, the
/// biggest holder's at the table's cap, records that may not go are passed over (or the insertion
/// refused), a key that exists keeps its owner and place, and removals leave the order right.
@Suite struct ClientQuotaTableTests {
    private let a = ClientAddress(peer: try! SocketAddress(ipAddress: "127.0.0.2", port: 1))
    private let b = ClientAddress(peer: try! SocketAddress(ipAddress: "127.0.0.3", port: 1))
    private let c = ClientAddress(peer: try! SocketAddress(ipAddress: "::ffff:127.0.0.4", port: 1))

    private func dropped(_ insertion: ClientQuotaTable<Int>.Insertion) -> [String]? {
        if case .added(let dropped) = insertion { return dropped.map(\.key) }
        return nil
    }

    @Test func theClientsOwnOldestMakesRoomAtItsCap() {
        var table = ClientQuotaTable<Int>()
        for key in ["a1", "a2", "a3"] {
            _ = table.insert(key, 0, owner: a, capacity: 10, perClient: 3, evictable: { _ in true })
        }
        _ = table.insert("b1", 0, owner: b, capacity: 10, perClient: 3, evictable: { _ in true })
        #expect(
            dropped(table.insert("a4", 0, owner: a, capacity: 10, perClient: 3, evictable: { _ in true })) == ["a1"])
        // Replacing keeps the place: a2 is still a's oldest.
        #expect(dropped(table.insert("a2", 7, owner: a, capacity: 10, perClient: 3, evictable: { _ in true })) == [])
        #expect(
            dropped(table.insert("a5", 0, owner: a, capacity: 10, perClient: 3, evictable: { _ in true })) == ["a2"])
        #expect(table["b1"] == 0 && table.count(of: a) == 3 && table.count(of: b) == 1)
    }

    @Test func theBiggestHolderMakesRoomAtTheTablesCap() {
        var table = ClientQuotaTable<Int>()
        for key in ["b1", "b2"] {
            _ = table.insert(key, 0, owner: b, capacity: 5, perClient: 5, evictable: { _ in true })
        }
        for key in ["a1", "a2", "a3"] {
            _ = table.insert(key, 0, owner: a, capacity: 5, perClient: 5, evictable: { _ in true })
        }
        #expect(dropped(table.insert("c1", 0, owner: c, capacity: 5, perClient: 5, evictable: { _ in true })) == ["a1"])
        // Now a and b hold 2 each: the one that added first among equals gives (b).
        #expect(dropped(table.insert("c2", 0, owner: c, capacity: 5, perClient: 5, evictable: { _ in true })) == ["b1"])
    }

    @Test func recordsThatMayNotGoArePassedOverOrTheInsertionRefused() {
        var table = ClientQuotaTable<Int>()
        _ = table.insert("held", 1, owner: a, capacity: 10, perClient: 2, evictable: nil)
        _ = table.insert("free", 0, owner: a, capacity: 10, perClient: 2, evictable: nil)
        #expect(
            dropped(table.insert("new", 0, owner: a, capacity: 10, perClient: 2, evictable: { $0 == 0 })) == ["free"])
        guard case .full = table.insert("more", 0, owner: a, capacity: 10, perClient: 2, evictable: nil) else {
            Issue.record("an insertion past the cap with nothing to drop was taken")
            return
        }
        // Another client is not at its cap.
        #expect(dropped(table.insert("b1", 0, owner: b, capacity: 10, perClient: 2, evictable: nil)) == [])
    }

    @Test func removalsKeepTheOrder() {
        var table = ClientQuotaTable<Int>()
        for index in 0..<100 {
            _ = table.insert("k\(index)", index, owner: a, capacity: 1_000, perClient: 60, evictable: { _ in true })
        }
        // 40 dropped at the cap (k0...k39); remove 26 of the rest, by value and by key.
        table.removeAll { $0 < 90 && $0 % 2 == 0 }
        table["k41"] = nil
        #expect(table.count == 34)
        #expect(
            dropped(table.insert("next", 0, owner: a, capacity: 1_000, perClient: 30, evictable: { _ in true })) == [
                "k43"
            ])
        #expect(table.filter { $0.key == "k99" }.first?.value == 99)
        #expect(
            ClientAddress(peer: try? SocketAddress(ipAddress: "2001:db8:1:2:3:4:5:6", port: 1)).description
                == "2001:db8:1:2::/64")
        #expect(c.description == "127.0.0.4")
    }
}
