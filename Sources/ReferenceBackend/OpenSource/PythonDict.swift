/// The iteration order of a Python 2.7 dict with string keys (CPython 2.7 `Objects/dictobject.c`
/// on a 64-bit build, hash randomisation off, as the open-source server ran): the string hash,
/// the open-addressing probe (`i = 5i + perturb + 1`, `perturb >>= 5`), the dummies deletion
/// leaves, the resize to the smallest power of two over four times the used count once two
/// thirds of the slots are filled, and the table a dict display of more than five entries starts
/// with. The open-source server's JSON keys (`json.dumps`) and Tornado's header fields
/// (`HTTPHeaders._as_list`) come out in this order.
struct PythonDict: Sendable {
    private enum Slot: Sendable, Equatable {
        case empty, dummy
        case key(String)
    }
    private var table = [Slot](repeating: .empty, count: 8)
    private var used = 0
    /// Whether the keys are integers (written as decimal text): `hash(n)` is `n`.
    private var integerKeys = false
    private var fill = 0

    /// An empty dict; `presized` is the entry count of a dict display (`{a: 1, b: 2, ...}`),
    /// which CPython 2.7 builds with `_PyDict_NewPresized`.
    /// A negative `presized` makes a dict with integer keys (`PythonValue.intKeyed`).
    init(presized: Int = 0) {
        integerKeys = presized < 0
        if presized > 5 { resize(minimumUsed: presized) }
    }

    /// A dict made by inserting `keys` in this order (repeats keep their first place).
    init(inserting keys: [String], display: Bool = false) {
        self.init(presized: display ? keys.count : 0)
        for key in keys { insert(key) }
    }

    /// The keys in iteration order.
    var keys: [String] {
        table.compactMap { if case .key(let key) = $0 { return key } else { return nil } }
    }

    func contains(_ key: String) -> Bool { lookup(key, in: table).found }

    /// `d[key] = value` for a key that may be new (an existing key keeps its place).
    mutating func insert(_ key: String) {
        let (index, found) = lookup(key, in: table)
        if found { return }
        if table[index] == .empty { fill += 1 }
        table[index] = .key(key)
        used += 1
        if fill * 3 >= table.count * 2 { resize(minimumUsed: 4 * used) }
    }

    /// `del d[key]`: leaves a dummy in the slot.
    mutating func remove(_ key: String) {
        let (index, found) = lookup(key, in: table)
        guard found else { return }
        table[index] = .dummy
        used -= 1
    }

    /// `int_hash` of Python 2.7: the value itself, -1 being -2.
    static func integerHash(_ key: String) -> Int64 {
        let value = Int64(key) ?? 0
        return value == -1 ? -2 : value
    }

    /// `string_hash` of Python 2.7 (64-bit `long`); ASCII `unicode` keys hash the same.
    static func hash(_ key: String) -> Int64 {
        let bytes = Array(key.utf8)
        guard let first = bytes.first else { return 0 }
        var x = Int64(first) << 7
        for byte in bytes { x = (1_000_003 &* x) ^ Int64(byte) }
        x ^= Int64(bytes.count)
        return x == -1 ? -2 : x
    }

    private func lookup(_ key: String, in table: [Slot]) -> (index: Int, found: Bool) {
        let mask = UInt64(table.count - 1)
        let hash = UInt64(bitPattern: integerKeys ? Self.integerHash(key) : Self.hash(key))
        var i = hash & mask
        var perturb = hash
        var free: Int?
        // At most as many probes as slots and then some: the table is never full (resized at 2/3).
        for _ in 0..<(table.count * 64) {
            let index = Int(i & mask)
            switch table[index] {
            case .empty: return (free ?? index, false)
            case .dummy: if free == nil { free = index }
            case .key(let other) where other == key: return (index, true)
            case .key: break
            }
            i = (i << 2) &+ i &+ perturb &+ 1
            perturb >>= 5
        }
        return (free ?? 0, false)
    }

    private mutating func resize(minimumUsed: Int) {
        var size = 8
        while size <= minimumUsed { size <<= 1 }
        let old = table
        table = [Slot](repeating: .empty, count: size)
        fill = used
        for case .key(let key) in old {
            let (index, _) = lookup(key, in: table)
            table[index] = .key(key)
        }
    }
}
