import MPinCrypto

/// All state of the DeviceSecurity service, behind one actor: users, applications and their
/// borrow times, MV sessions, devices mapped to users, armed faults and settings.
///
/// The MV sessions and the mapped devices are capped at `capacity` each: at the cap, a new
/// session replaces the one opened first (after timed-out ones are dropped), and a new device
/// replaces the one confirmed longest ago. Users, applications and faults are the operator's.
actor DeviceSecurityStore {
    /// The most MV sessions, and the most mapped devices.
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    var settings = DeviceSecuritySettings()
    private(set) var users: [String: DeviceSecurityUser] = [:]
    /// Borrow time (seconds) of each known application.
    private(set) var applications: [String: Int64] = [:]
    private var sessions: [String: DeviceSecuritySession] = [:]
    private(set) var devices: [String: DeviceMapping] = [:]
    private var faults: [DeviceSecurityFault] = []
    private var registrations: UInt64 = 0

    // MARK: - Administration

    func putUser(_ username: String, _ user: DeviceSecurityUser) { users[username] = user }

    func putApplication(_ accessIdentifier: String, borrowTime: Int64?) {
        applications[accessIdentifier] = borrowTime ?? settings.defaultApplicationBorrowTime
    }

    /// Grants or withdraws an application; false when the user is unknown.
    func setAccess(username: String, accessIdentifier: String, granted: Bool) -> Bool {
        guard users[username] != nil else { return false }
        if granted {
            users[username]!.applications.insert(accessIdentifier)
            if applications[accessIdentifier] == nil {
                applications[accessIdentifier] = settings.defaultApplicationBorrowTime
            }
        } else {
            users[username]!.applications.remove(accessIdentifier)
        }
        return true
    }

    func update(_ change: (inout DeviceSecuritySettings) -> Void) { change(&settings) }

    func arm(_ fault: DeviceSecurityFault) { faults.append(fault) }

    func clearFaults() { faults.removeAll() }

    /// The armed fault that applies to this call of `operation`, counted down.
    func takeFault(_ operation: String) -> DeviceSecurityFault? {
        guard let index = faults.firstIndex(where: { $0.operation == operation || $0.operation == "*" }) else {
            return nil
        }
        let fault = faults[index]
        faults[index].count -= 1
        if faults[index].count <= 0 { faults.remove(at: index) }
        return fault
    }

    func counts() -> [String: Int] {
        [
            "users": users.count, "applications": applications.count, "sessions": sessions.count,
            "devices": devices.count,
            "faults": faults.count,
        ]
    }

    // MARK: - Service operations

    enum LoginOutcome { case refused, opened(String) }

    func login(username: String, password: String, group: String, sessionID: String, now: Int64) -> LoginOutcome {
        guard let user = users[username], HMACSHA256.equal(user.password, password), user.group == group else {
            return .refused
        }
        sweep(now: now)
        sessions[sessionID] = DeviceSecuritySession(username: username, opened: now)
        return .opened(sessionID)
    }

    func session(_ id: String, now: Int64) -> DeviceSecuritySession? {
        guard let session = sessions[id], now - session.opened < settings.sessionLifetime * 1000 else { return nil }
        return session
    }

    /// Maps the device to the session's user under a new device hash (an earlier hash of the same
    /// device is dropped); nil when the session is unknown or expired.
    func register(sessionID: String, deviceID: String, now: Int64) -> String? {
        guard let session = session(sessionID, now: now) else { return nil }
        registrations += 1
        var input =
            Array("mvid device hash".utf8) + [0] + Array(deviceID.utf8) + [0] + Array(session.username.utf8) + [0]
        for shift in stride(from: 56, through: 0, by: -8) {
            input.append(UInt8(truncatingIfNeeded: registrations >> UInt64(shift)))
        }
        let hash = Hex.encode(SHA256.hash(input))
        devices = devices.filter { $0.value.deviceID != deviceID }
        if devices.count >= capacity, let first = devices.min(by: { $0.value.confirmed < $1.value.confirmed })?.key {
            devices[first] = nil
        }
        devices[hash] = DeviceMapping(username: session.username, deviceID: deviceID, confirmed: now)
        return hash
    }

    enum ApplicationOutcome {
        case deviceExpired
        case denied
        case granted(username: String, borrowTime: Int64)
    }

    /// The application-login verdict. A device whose borrow time has run out since its last
    /// confirmation is unmapped; a good device is confirmed again (granted or denied).
    func applicationLogin(deviceHash: String, accessIdentifier: String, now: Int64) -> ApplicationOutcome {
        guard let mapping = devices[deviceHash] else { return .deviceExpired }
        guard now >= mapping.confirmed, now - mapping.confirmed < settings.deviceBorrowTime * 1000,
            let user = users[mapping.username]
        else {
            devices[deviceHash] = nil
            return .deviceExpired
        }
        devices[deviceHash]!.confirmed = now
        guard user.applications.contains(accessIdentifier), let borrow = applications[accessIdentifier] else {
            return .denied
        }
        return .granted(username: mapping.username, borrowTime: borrow)
    }

    func openSession(username: String, sessionID: String, now: Int64) {
        sweep(now: now)
        sessions[sessionID] = DeviceSecuritySession(username: username, opened: now)
    }

    /// Drops timed-out sessions once there are many, and at `capacity` the session opened first
    /// (bounded memory under load).
    private func sweep(now: Int64) {
        guard sessions.count > min(1024, capacity - 1) else { return }
        sessions = sessions.filter { now - $0.value.opened < settings.sessionLifetime * 1000 }
        if sessions.count >= capacity, let first = sessions.min(by: { $0.value.opened < $1.value.opened })?.key {
            sessions[first] = nil
        }
    }
}
