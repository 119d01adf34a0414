/// The open-source server's memory storage (lib/storage/backends/memory.py) as its RPS and demo
/// RPA use it, for the `milagro-oss` profile: items found by index keys that compare as Python
/// values do, the latest item winning a key; a deleted or expired item is not found. Nothing is
/// consumed where the Python code does not delete it: a pass-1 record answers any number of
/// pass 2s, and a failed login's authOTT can be presented again.
///
/// Unlike the Python storage, each kind of item is capped at `capacity` (the backend's
/// `recordLimit`): at the cap a new registration or pass-1 record replaces the one that ends
/// first (an expired one before any live one), a new auth item replaces the oldest, and a new
/// demo session or attempt count replaces one of those kept. No answer changes below the cap; at
/// it the open-source server's answers stay, for the items kept.
actor OpenSourceStore {
    /// The most items of each kind.
    let capacity: Int
    /// The lowest id an auth item may still have (ids are given in increasing order).
    private var oldestAuthID = 1

    init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    struct Registration: Sendable {
        var regOTT: PythonValue
        /// The activation key once active (`active` of the RPS's item), else nil.
        var active: String?
        var expires: Int64
        var userID: String
    }

    struct Pass1: Sendable {
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

    private var registrations: [String: Registration] = [:]
    private var pass1: [String: Pass1] = [:]
    private var auths: [Int: AuthItem] = [:]
    private var byAuthOTT: [String: Int] = [:]
    private var byWID: [String: Int] = [:]
    private var byWebOTT: [String: Int] = [:]
    private var nextID = 0
    private var attempts: [String: Int] = [:]
    /// The demo RPA's logged-in sessions (`s;<sessionId>` items): the user of each.
    private var demoSessions: [String: String] = [:]

    // MARK: registrations

    func putRegistration(_ mpinID: String, _ record: Registration) {
        makeRoom(in: &registrations, for: mpinID, ending: \.expires)
        registrations[mpinID] = record
    }

    func registration(_ mpinID: String, now: Int64) -> Registration? {
        guard let record = registrations[mpinID], record.expires >= now else { return nil }
        return record
    }

    func deleteRegistration(_ mpinID: String) { registrations[mpinID] = nil }

    /// The demo RPA's activation (`POST /user/<mpinId> {"activateKey"}` to the RPS): false when no
    /// registration has that M-Pin ID.
    func activate(_ mpinID: String, key: String, now: Int64) -> Bool {
        guard var record = registration(mpinID, now: now) else { return false }
        record.active = key
        registrations[mpinID] = record
        return true
    }

    // MARK: pass 1

    func putPass1(_ mpinIDHex: String, _ record: Pass1) {
        makeRoom(in: &pass1, for: mpinIDHex, ending: \.expires)
        pass1[mpinIDHex] = record
    }

    func pass1(_ mpinIDHex: String, now: Int64) -> Pass1? {
        guard let record = pass1[mpinIDHex], record.expires >= now else { return nil }
        return record
    }

    // MARK: auth items

    /// Adds an item and indexes it by whichever of authOTT, wid and webOTT it has.
    func addAuth(_ item: AuthItem) {
        while auths.count >= capacity, oldestAuthID <= nextID {
            if let dropped = auths.removeValue(forKey: oldestAuthID) {
                if byAuthOTT[dropped.authOTT.indexKey] == oldestAuthID { byAuthOTT[dropped.authOTT.indexKey] = nil }
                if byWID[dropped.wid.indexKey] == oldestAuthID { byWID[dropped.wid.indexKey] = nil }
                if byWebOTT[dropped.webOTT.indexKey] == oldestAuthID { byWebOTT[dropped.webOTT.indexKey] = nil }
            }
            oldestAuthID += 1
        }
        nextID += 1
        auths[nextID] = item
        index(nextID, item)
    }

    private func index(_ id: Int, _ item: AuthItem) {
        if item.authOTT != .none { byAuthOTT[item.authOTT.indexKey] = id }
        if item.wid != .none { byWID[item.wid.indexKey] = id }
        if item.webOTT != .none { byWebOTT[item.webOTT.indexKey] = id }
    }

    enum Key: Sendable { case authOTT(PythonValue), wid(PythonValue), webOTT(PythonValue) }

    /// The live item a key finds.
    func id(_ key: Key, now: Int64) -> Int? {
        let id: Int?
        switch key {
        case .authOTT(let v): id = byAuthOTT[v.indexKey]
        case .wid(let v): id = byWID[v.indexKey]
        case .webOTT(let v): id = byWebOTT[v.indexKey]
        }
        guard let id, let item = auths[id], item.active, item.expires >= now else { return nil }
        return id
    }

    func findAuth(_ key: Key, now: Int64) -> AuthItem? { id(key, now: now).flatMap { auths[$0] } }

    /// An item by id, deleted or not (a handler keeps the item it found, as the Python code does).
    func item(_ id: Int) -> AuthItem? { auths[id] }

    /// `I.update(...)` of an item by id.
    func updateAuth(id: Int, _ change: (inout AuthItem) -> Void) {
        guard var item = auths[id] else { return }
        change(&item)
        auths[id] = item
        index(id, item)
    }

    /// `I.update(...)` of the item a key finds (its new authOTT indexed too); false when none is found.
    @discardableResult
    func updateAuth(_ key: Key, now: Int64, _ change: (inout AuthItem) -> Void) -> Bool {
        guard let id = id(key, now: now), var item = auths[id] else { return false }
        change(&item)
        auths[id] = item
        index(id, item)
        return true
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
