/// The open-source server's memory storage (lib/storage/backends/memory.py) as its RPS and demo
/// RPA use it, for the `milagro-oss` profile, flaws included (docs/backend.md, "The storage the
/// profile reproduces"). Items are found through indexes whose key is the item's current values
/// (`"_".join(str(v))`, only when every value is true), the latest item winning a key. Deleting an
/// item marks it inactive and removes the keys its values make now, whatever item they point to.
/// The RPS's items that expire (registrations, pass-1 records, auth items, time permits) are kept
/// in one list sorted by expiry (to the second); each add or update, and a timer 100 ms after the
/// first item's expiry, removes from the front every item that is inactive or expired, and with it
/// the keys it makes. So a deleted registration that reaches the front takes the key of the
/// registration that replaced it (a restart): the replacement can no longer be found. This bug is
/// the profile's alone; the other profiles keep their records as `BackendStore` does.
///
/// Unlike the Python storage, each kind of item is capped at `capacity` (the backend's
/// `recordLimit`): at the cap a new item replaces the oldest of its kind. No answer changes below
/// the cap; at it the open-source server's answers stay, for the items kept.
actor OpenSourceStore {
    /// The most items of each kind.
    let capacity: Int
    /// The lowest id an auth item may still have (ids are given in increasing order).
    private var oldestAuthID = 1

    init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// An item in the expiry list: which kind, which id.
    private enum Entry: Hashable {
        case registration(Int), pass1(Int), auth(Int), permit(String)
    }

    /// The expiry list: (expiry in whole seconds as ms, creation order, entry), sorted.
    private var expiring: [(expiry: Int64, order: Int, entry: Entry)] = []
    private var order = 0
    /// When the storage's timer fires next (100 ms after the first live item's expiry), if set.
    private var timer: Int64?

    struct Registration: Sendable {
        var mpinID: String
        var regOTT: PythonValue
        /// The activation key once active (`active` of the RPS's item), else nil.
        var active: String?
        var expires: Int64
        var userID: String
    }

    struct Pass1: Sendable {
        var mpinID = ""
        var u: PythonValue
        var ut: PythonValue
        var y: [UInt8]
        var expires: Int64
    }

    /// The authentication token pass 2 makes (`token` in servers/rps/rps.py).
    struct AuthToken: Sendable {
        var mpinID: [UInt8]
        var success: Bool
        var expires: Int64
        var otp: String
    }

    /// An item of `stage="auth"`: an access-number session, or a direct login's authOTT.
    struct AuthItem: Sendable {
        var expires: Int64
        var webOTT: PythonValue = .none
        var wid: PythonValue = .none
        var authOTT: PythonValue = .none
        var token: AuthToken?
        var status: Int?
        var message: String?
        var mobileStatus: PythonValue = .none
        var userID: PythonValue = .none
        var browserReady = false
        var logoutURL: String?
        var logoutData: PythonValue = .none
        var active = true
    }

    private var registrations: [Int: Registration] = [:]
    private var registrationActive: Set<Int> = []
    private var registrationIndex: [String: Int] = [:]
    private var pass1: [Int: Pass1] = [:]
    private var pass1Index: [String: Int] = [:]
    private var permits: [String: [UInt8]] = [:]
    private var auths: [Int: AuthItem] = [:]
    private var byAuthOTT: [String: Int] = [:]
    private var byWID: [String: Int] = [:]
    private var byWebOTT: [String: Int] = [:]
    private var nextID = 0
    private var attempts: [String: Int] = [:]
    /// The demo RPA's logged-in sessions (`s;<sessionId>` items): the user of each.
    private var demoSessions: [String: String] = [:]

    // MARK: the expiry list

    /// `bisect.insort_left` of an entry expiring at `expiry` (ms; kept to the whole second, as
    /// `Time.ISOtoDateTime` reads it back).
    private func insert(_ entry: Entry, expiry: Int64) {
        order += 1
        let item = (expiry: expiry / 1000 * 1000, order: order, entry: entry)
        let index = expiring.firstIndex { ($0.expiry, $0.order) > (item.expiry, item.order) } ?? expiring.count
        expiring.insert(item, at: index)
    }

    /// `_schedule_expiration_check` at `now`: drops every entry at the front whose item is gone,
    /// inactive or expired, with the index keys it makes; sets the timer for the next.
    private func check(now: Int64) {
        timer = nil
        while let first = expiring.first {
            guard isLive(first.entry) == true, first.expiry >= now else {
                expiring.removeFirst()
                if isLive(first.entry) != nil { remove(first.entry) }
                continue
            }
            timer = first.expiry + 100
            return
        }
    }

    /// Runs the timer's checks due by `now` (the Python timer fires between requests).
    private func elapse(_ now: Int64) {
        var rounds = 0
        while let due = timer, due <= now, rounds < 100_000 {
            check(now: due)
            rounds += 1
        }
    }

    /// Whether an entry's item is active (nil when it is gone).
    private func isLive(_ entry: Entry) -> Bool? {
        switch entry {
        case .registration(let id): registrations[id] == nil ? nil : registrationActive.contains(id)
        case .pass1(let id): pass1[id] == nil ? nil : true
        case .auth(let id): auths[id].map(\.active)
        case .permit(let key): permits[key] == nil ? nil : true
        }
    }

    /// An item gone from the storage, and the keys its values make removed from the indexes.
    private func remove(_ entry: Entry) {
        switch entry {
        case .registration(let id):
            if let record = registrations.removeValue(forKey: id) { registrationIndex[record.mpinID] = nil }
            registrationActive.remove(id)
        case .pass1(let id):
            if let record = pass1.removeValue(forKey: id) { pass1Index[record.mpinID] = nil }
        case .auth(let id):
            if let item = auths.removeValue(forKey: id) { unindex(item) }
        case .permit(let key):
            permits[key] = nil
        }
    }

    // MARK: registrations

    /// `storage.add(stage="register", …)`.
    func putRegistration(_ record: Registration, now: Int64) {
        elapse(now)
        if registrations.count >= capacity, let oldest = registrations.keys.min() { remove(.registration(oldest)) }
        nextID += 1
        registrations[nextID] = record
        registrationActive.insert(nextID)
        registrationIndex[record.mpinID] = nextID
        insert(.registration(nextID), expiry: record.expires)
        check(now: now)
    }

    /// `storage.find(stage="register", mpinId=…)`: the item and its id.
    func registration(_ mpinID: String, now: Int64) -> (id: Int, record: Registration)? {
        elapse(now)
        guard let id = registrationIndex[mpinID], registrationActive.contains(id), let record = registrations[id]
        else { return nil }
        return (id, record)
    }

    /// `item.delete()` of a registration: inactive, and its key removed from the index.
    func deleteRegistration(_ id: Int, now: Int64) {
        elapse(now)
        guard let record = registrations[id] else { return }
        registrationActive.remove(id)
        registrationIndex[record.mpinID] = nil
    }

    /// The demo RPA's activation (`POST /user/<mpinId> {"activateKey"}` to the RPS, `I.update`):
    /// false when no registration has that M-Pin ID.
    func activate(_ mpinID: String, key: String, now: Int64) -> Bool {
        guard let (id, record) = registration(mpinID, now: now) else { return false }
        var updated = record
        updated.active = key
        registrations[id] = updated
        registrationIndex[mpinID] = id
        insert(.registration(id), expiry: record.expires)
        check(now: now)
        return true
    }

    // MARK: pass 1

    func putPass1(_ mpinIDHex: String, _ record: Pass1, now: Int64) {
        elapse(now)
        if pass1.count >= capacity, let oldest = pass1.keys.min() { remove(.pass1(oldest)) }
        nextID += 1
        var stored = record
        stored.mpinID = mpinIDHex
        pass1[nextID] = stored
        pass1Index[mpinIDHex] = nextID
        insert(.pass1(nextID), expiry: record.expires)
        check(now: now)
    }

    func pass1(_ mpinIDHex: String, now: Int64) -> Pass1? {
        elapse(now)
        return pass1Index[mpinIDHex].flatMap { pass1[$0] }
    }

    // MARK: time permits

    /// A cached share of D-TA 1's time permit (`time_permit_id`, `time_permit_date`).
    func permit(_ hashHex: String, date: UInt32, now: Int64) -> [UInt8]? {
        elapse(now)
        return permits["\(hashHex)_\(date)"]
    }

    /// `cache_time_permits`: each day's share, expiring a day after the day starts.
    func keepPermits(_ hashHex: String, from date: UInt32, _ shares: [[UInt8]], now: Int64) {
        elapse(now)
        for (offset, share) in shares.enumerated() {
            let day = date &+ UInt32(offset)
            let key = "\(hashHex)_\(day)"
            if permits.count >= capacity, permits[key] == nil { break }
            permits[key] = share
            insert(.permit(key), expiry: (Int64(day) + 1) * 86_400_000)
            check(now: now)
        }
    }

    // MARK: auth items

    /// `storage.add(stage="auth", …)`: indexed by whichever of authOTT, wid and webOTT it has.
    func addAuth(_ item: AuthItem, now: Int64) {
        elapse(now)
        while auths.count >= capacity, oldestAuthID <= nextID {
            if let dropped = auths.removeValue(forKey: oldestAuthID) { unindex(dropped, only: oldestAuthID) }
            oldestAuthID += 1
        }
        nextID += 1
        var stored = item
        stored.active = true
        auths[nextID] = stored
        index(nextID, stored)
        insert(.auth(nextID), expiry: item.expires)
        check(now: now)
    }

    private func index(_ id: Int, _ item: AuthItem) {
        if let key = item.authOTT.storageKey { byAuthOTT[key] = id }
        if let key = item.wid.storageKey { byWID[key] = id }
        if let key = item.webOTT.storageKey { byWebOTT[key] = id }
    }

    /// The keys an item's values make, removed (whatever item they point to, unless `only` says).
    private func unindex(_ item: AuthItem, only: Int? = nil) {
        if let key = item.authOTT.storageKey, only == nil || byAuthOTT[key] == only { byAuthOTT[key] = nil }
        if let key = item.wid.storageKey, only == nil || byWID[key] == only { byWID[key] = nil }
        if let key = item.webOTT.storageKey, only == nil || byWebOTT[key] == only { byWebOTT[key] = nil }
    }

    enum Key: Sendable { case authOTT(PythonValue), wid(PythonValue), webOTT(PythonValue) }

    /// The active item a key finds (an expired one stays until the storage's check removes it).
    func id(_ key: Key, now: Int64) -> Int? {
        elapse(now)
        let id: Int?
        switch key {
        case .authOTT(let v): id = v.storageKey.flatMap { byAuthOTT[$0] }
        case .wid(let v): id = v.storageKey.flatMap { byWID[$0] }
        case .webOTT(let v): id = v.storageKey.flatMap { byWebOTT[$0] }
        }
        guard let id, let item = auths[id], item.active else { return nil }
        return id
    }

    func findAuth(_ key: Key, now: Int64) -> AuthItem? { id(key, now: now).flatMap { auths[$0] } }

    /// An item by id, deleted or not (a handler keeps the item it found, as the Python code does).
    func item(_ id: Int) -> AuthItem? { auths[id] }

    /// `I.update(...)` of an item by id: the change, the item active again, indexed by its values
    /// now and put in the expiry list again, then the storage's check.
    func updateAuth(id: Int, now: Int64, _ change: (inout AuthItem) -> Void) {
        guard var item = auths[id] else { return }
        change(&item)
        item.active = true
        auths[id] = item
        index(id, item)
        insert(.auth(id), expiry: item.expires)
        check(now: now)
    }

    /// `I.update(...)` of the item a key finds; false when none is found.
    @discardableResult
    func updateAuth(_ key: Key, now: Int64, _ change: (inout AuthItem) -> Void) -> Bool {
        guard let id = id(key, now: now) else { return false }
        updateAuth(id: id, now: now, change)
        return true
    }

    /// `I.delete()`: inactive, the keys of its values removed.
    func deleteAuth(id: Int, now: Int64) {
        elapse(now)
        guard var item = auths[id] else { return }
        item.active = false
        auths[id] = item
        unindex(item)
    }

    func isWidTaken(_ wid: String, now: Int64) -> Bool { id(.wid(.string(wid)), now: now) != nil }

    // MARK: attempts

    func attempts(_ mpinIDHex: String) -> Int { attempts[mpinIDHex] ?? 0 }

    func setAttempts(_ mpinIDHex: String, _ count: Int?) {
        if count != nil { makeRoom(in: &attempts, for: mpinIDHex, ending: { _ in 0 }) }
        attempts[mpinIDHex] = count
    }

    // MARK: the demo RPA's sessions

    func loggedUser(_ sessionID: String) -> String? { demoSessions[sessionID] }

    func logIn(_ sessionID: String, userID: String) {
        makeRoom(in: &demoSessions, for: sessionID, ending: { _ in 0 })
        demoSessions[sessionID] = userID
    }

    func logOut(_ sessionID: String) { demoSessions[sessionID] = nil }

    // MARK: the cap

    /// Makes room for a new `key` in `items` at `capacity`: drops the item that ends first.
    private func makeRoom<Item>(in items: inout [String: Item], for key: String, ending: (Item) -> Int64) {
        guard items.count >= capacity, items[key] == nil,
            let first = items.min(by: { ending($0.value) < ending($1.value) })?.key
        else { return }
        items[first] = nil
    }
}
