/// Records of one kind, by key, each owned by the client that added it (`ClientAddress`), with
/// the two caps of `BackendStore`: each client holds at most `perClient` of them, and the table at
/// most `capacity`. A new record past a cap makes room by dropping a record that may be dropped
/// (`evictable`), the oldest such of:
///
/// * the client itself, when it holds `perClient` already;
/// * else, when the table holds `capacity`, the client that holds the most (the one that added
///   first among equals).
///
/// So a client's records are dropped early only for a client that holds at least as many: a
/// flood from one client pushes out its own records, never those of the others. When nothing may
/// be dropped (identities are never dropped) the new record is refused.
///
/// A key that exists is replaced in its place and keeps its owner, even at the caps. The oldest
/// record of a client is found from its keys in the order added, left behind by removals and
/// skipped then (compacted once they outnumber the live ones), so each costs O(1) on average.
struct ClientQuotaTable<Value> {
    private struct Entry {
        var value: Value
        let owner: ClientAddress
        let serial: Int
    }

    /// One client's keys in the order added, from `head` on; `count` of them are live.
    private struct Holdings {
        var keys: [(key: String, serial: Int)] = []
        var head = 0
        var count = 0
        var first: Int
    }

    private var entries: [String: Entry] = [:]
    private var holdings: [ClientAddress: Holdings] = [:]
    private var serial = 0

    /// What `insert` did.
    enum Insertion {
        /// Added (or replaced), after dropping these records to make room.
        case added(dropped: [(key: String, value: Value)])
        /// Refused: at a cap with nothing that may be dropped.
        case full
    }

    var count: Int { entries.count }

    /// How many records `client` holds.
    func count(of client: ClientAddress) -> Int { holdings[client]?.count ?? 0 }

    /// The record of `key`. Setting nil removes it; setting a value replaces one that exists in
    /// its place (same owner). A new key set this way belongs to no client (`ClientAddress.unknown`)
    /// and passes no cap: what clients add goes through `insert`.
    subscript(key: String) -> Value? {
        get { entries[key]?.value }
        set {
            if let newValue {
                if entries[key] != nil {
                    entries[key]!.value = newValue
                } else {
                    add(key, newValue, owner: .unknown)
                }
            } else {
                remove(key)
            }
        }
    }

    /// Adds `value` under `key` for `owner`, or replaces the record of `key` (see the type).
    mutating func insert(
        _ key: String, _ value: Value, owner: ClientAddress, capacity: Int, perClient: Int,
        evictable: ((Value) -> Bool)?
    ) -> Insertion {
        if entries[key] != nil {
            entries[key]!.value = value
            return .added(dropped: [])
        }
        var dropped: [(key: String, value: Value)] = []
        if count(of: owner) >= max(1, perClient) {
            guard let evictable, let oldest = dropOldest(of: owner, evictable) else { return .full }
            dropped.append(oldest)
        } else if count >= max(1, capacity) {
            guard let evictable, let biggest = biggestHolder(), let oldest = dropOldest(of: biggest, evictable) else {
                return .full
            }
            dropped.append(oldest)
        }
        add(key, value, owner: owner)
        return .added(dropped: dropped)
    }

    /// Removes every record `condition` holds for; returns them.
    @discardableResult
    mutating func removeAll(where condition: (Value) -> Bool) -> [(key: String, value: Value)] {
        let gone = entries.filter { condition($0.value.value) }
        for key in gone.keys { remove(key) }
        return gone.map { ($0.key, $0.value.value) }
    }

    /// The records `condition` holds for.
    func filter(_ condition: ((key: String, value: Value)) -> Bool) -> [(key: String, value: Value)] {
        entries.lazy.map { (key: $0.key, value: $0.value.value) }.filter(condition)
    }

    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        let value = entries[key]?.value
        remove(key)
        return value
    }

    private mutating func add(_ key: String, _ value: Value, owner: ClientAddress) {
        serial += 1
        entries[key] = Entry(value: value, owner: owner, serial: serial)
        holdings[owner, default: Holdings(first: serial)].keys.append((key, serial))
        holdings[owner]!.count += 1
    }

    private mutating func remove(_ key: String) {
        guard let entry = entries.removeValue(forKey: key), var held = holdings[entry.owner] else { return }
        held.count -= 1
        if held.count == 0 {
            holdings[entry.owner] = nil
            return
        }
        // Compacted once stale keys outnumber the live ones.
        if held.keys.count - held.head > 2 * held.count + 16 {
            held.keys = held.keys[held.head...].filter { isLive($0, of: entry.owner) }
            held.head = 0
        }
        holdings[entry.owner] = held
    }

    private func isLive(_ item: (key: String, serial: Int), of owner: ClientAddress) -> Bool {
        guard let entry = entries[item.key] else { return false }
        return entry.serial == item.serial && entry.owner == owner
    }

    /// Drops the oldest record of `owner` that may be dropped, and returns it.
    private mutating func dropOldest(of owner: ClientAddress, _ evictable: (Value) -> Bool) -> (
        key: String, value: Value
    )? {
        guard var held = holdings[owner] else { return nil }
        // Stale keys at the front are passed for good.
        while held.head < held.keys.count, !isLive(held.keys[held.head], of: owner) { held.head += 1 }
        holdings[owner] = held
        var index = held.head
        while index < held.keys.count {
            let item = held.keys[index]
            if isLive(item, of: owner), let entry = entries[item.key], evictable(entry.value) {
                remove(item.key)
                return (item.key, entry.value)
            }
            index += 1
        }
        return nil
    }

    /// The client holding the most records (the earliest to add among equals).
    private func biggestHolder() -> ClientAddress? {
        holdings.max { ($0.value.count, -$0.value.first) < ($1.value.count, -$1.value.first) }?.key
    }
}
