/// All mutable state of the backend, behind one actor so that concurrent requests see it
/// consistently. Expensive crypto never runs in here; handlers do it before or after.
actor BackendStore {
    private var registrations: [String: RegistrationRecord] = [:]
    private var identities: [String: IdentityRecord] = [:]
    private var revokedUsers: Set<String> = []
    private var revokedIDs: Set<String> = []
    private var pass1: [String: Pass1Record] = [:]
    private var auths: [String: AuthRecord] = [:]
    private var sessions: [String: BrowserSession] = [:]
    private var widByWebOTT: [String: String] = [:]
    private var widBySessionToken: [String: String] = [:]
    private var codes: [String: AuthorizationCode] = [:]
    private var activationCodes: [String: (code: String, expires: Int64)] = [:]
    private(set) var mailbox: [ActivationMessage] = []
    private var insertions = 0

    // MARK: - Registration

    func putRegistration(_ record: RegistrationRecord, now: Int64) {
        sweep(now: now)
        registrations[record.mpinID] = record
    }

    func registration(_ mpinID: String, now: Int64) -> RegistrationRecord? {
        guard let record = registrations[mpinID], record.expires >= now else { return nil }
        return record
    }

    /// Marks a registration active when `key` is its activation key; false when none matches.
    func activate(mpinID: String, key: String, now: Int64) -> Bool {
        guard var record = registration(mpinID, now: now), HMACSHA256.equal(record.activateKey, key) else { return false }
        record.active = true
        registrations[mpinID] = record
        return true
    }

    enum SignatureCheck {
        case unknown, wrongRegOTT, notActive
        case ok(RegistrationRecord)
    }

    /// The signature request's check: a wrong regOTT deletes the record (as the open-source RPS
    /// does); a right one on an active record consumes it and issues the identity.
    func consumeRegistration(mpinID: String, regOTT: String, now: Int64) -> SignatureCheck {
        guard let record = registration(mpinID, now: now) else { return .unknown }
        guard HMACSHA256.equal(record.regOTT, regOTT) else {
            registrations[mpinID] = nil
            return .wrongRegOTT
        }
        guard record.active else { return .notActive }
        registrations[mpinID] = nil
        identities[mpinID] = IdentityRecord(userID: record.userID)
        return .ok(record)
    }

    func identity(_ mpinID: String) -> IdentityRecord? { identities[mpinID] }

    func isRevoked(mpinID: String) -> Bool {
        guard let identity = identities[mpinID] else { return false }
        return revokedIDs.contains(mpinID) || revokedUsers.contains(identity.userID)
    }

    /// Revokes (or restores) a user id or an M-Pin ID; returns the M-Pin IDs now affected.
    func setRevoked(userID: String?, mpinID: String?, revoked: Bool) -> [String] {
        if let userID {
            if revoked { revokedUsers.insert(userID) } else { revokedUsers.remove(userID) }
        }
        if let mpinID {
            if revoked { revokedIDs.insert(mpinID) } else { revokedIDs.remove(mpinID) }
        }
        return identities.filter { $0.key == mpinID || $0.value.userID == userID }.map(\.key).sorted()
    }

    // MARK: - Activation codes and mail

    func putActivationCode(userID: String, code: String, expires: Int64) {
        activationCodes[userID] = (code, expires)
    }

    /// Consumes the activation code of a user; true when it matched and was live.
    func redeemActivationCode(userID: String, code: String, now: Int64) -> Bool {
        guard let entry = activationCodes[userID], entry.expires >= now, HMACSHA256.equal(entry.code, code) else { return false }
        activationCodes[userID] = nil
        return true
    }

    func post(_ message: ActivationMessage) {
        mailbox.append(message)
        if mailbox.count > 10_000 { mailbox.removeFirst(mailbox.count - 10_000) }
    }

    // MARK: - Passes

    func putPass1(mpinID: String, _ record: Pass1Record, now: Int64) {
        sweep(now: now)
        pass1[mpinID] = record
    }

    enum Pass1Lookup {
        case none, expired
        case found(Pass1Record)
    }

    /// Takes (removes) the pass-1 record of an ID: each y answers one pass 2.
    func takePass1(mpinID: String, now: Int64) -> Pass1Lookup {
        guard let record = pass1.removeValue(forKey: mpinID) else { return .none }
        return record.expires >= now ? .found(record) : .expired
    }

    /// Stores the verdict of pass 2. With a WID it is attached to that browser session, and
    /// dropped (so that the authOTT is unknown later) when no live session has it.
    func putAuth(authOTT: String, _ record: AuthRecord, now: Int64) {
        sweep(now: now)
        if !record.wid.isEmpty {
            guard var session = sessions[record.wid], session.expires >= now, session.status != .aborted else { return }
            session.authOTT = authOTT
            sessions[record.wid] = session
        }
        auths[authOTT] = record
    }

    enum Redemption {
        /// No such authOTT (or already used).
        case unknown
        case expired
        /// The ID has reached the attempt limit (now or before).
        case blocked(AuthRecord)
        case wrongPIN(AuthRecord)
        case ok(AuthRecord)
    }

    /// Redeems an authOTT once, applying the attempt rule: a failure counts, the failure that
    /// reaches the limit and every attempt after it is `blocked`, a success resets the count.
    func redeem(authOTT: String, now: Int64, maximumAttempts: Int) -> Redemption {
        guard let record = auths.removeValue(forKey: authOTT) else { return .unknown }
        guard record.expires >= now else { return .expired }
        var identity = identities[record.mpinID] ?? IdentityRecord(userID: record.userID)
        if identity.attempts >= maximumAttempts { return .blocked(record) }
        if record.success {
            identity.attempts = 0
            identities[record.mpinID] = identity
            return .ok(record)
        }
        identity.attempts += 1
        identities[record.mpinID] = identity
        return identity.attempts >= maximumAttempts ? .blocked(record) : .wrongPIN(record)
    }

    // MARK: - Browser sessions

    func putSession(_ session: BrowserSession, now: Int64) {
        sweep(now: now)
        sessions[session.wid] = session
        widByWebOTT[session.webOTT] = session.wid
    }

    func hasLiveSession(wid: String, now: Int64) -> Bool {
        guard let session = sessions[wid] else { return false }
        return session.expires >= now
    }

    func session(wid: String, now: Int64) -> BrowserSession? {
        guard let session = sessions[wid], session.expires >= now else { return nil }
        return session
    }

    /// The session of a webOTT; `expired` is true when it existed but has expired.
    func session(webOTT: String, now: Int64) -> (session: BrowserSession?, expired: Bool) {
        guard let wid = widByWebOTT[webOTT], let session = sessions[wid] else { return (nil, false) }
        return session.expires >= now || session.status == .authenticate || session.status == .logout
            ? (session, false) : (session, true)
    }

    /// Changes a live session; nil when there is none.
    @discardableResult
    func updateSession(wid: String, now: Int64, _ change: (inout BrowserSession) -> Void) -> BrowserSession? {
        guard var session = sessions[wid], session.expires >= now || session.status == .authenticate else { return nil }
        change(&session)
        sessions[wid] = session
        if !session.sessionToken.isEmpty { widBySessionToken[session.sessionToken] = wid }
        return session
    }

    /// Logs a browser session out by its session token; false when the token or user do not match.
    func logout(sessionToken: String, userID: String) -> Bool {
        guard let wid = widBySessionToken[sessionToken], var session = sessions[wid],
              session.status == .authenticate, session.userID == userID else { return false }
        session.status = .logout
        sessions[wid] = session
        widBySessionToken[sessionToken] = nil
        return true
    }

    // MARK: - Authorization codes

    func putCode(_ code: String, _ record: AuthorizationCode) {
        codes[code] = record
    }

    func redeemCode(_ code: String, now: Int64) -> AuthorizationCode? {
        guard let record = codes.removeValue(forKey: code), record.expires >= now else { return nil }
        return record
    }

    // MARK: - Housekeeping

    /// Drops expired short-lived records every few hundred insertions, to bound memory.
    private func sweep(now: Int64) {
        insertions += 1
        guard insertions % 512 == 0 else { return }
        registrations = registrations.filter { $0.value.expires >= now }
        pass1 = pass1.filter { $0.value.expires >= now }
        auths = auths.filter { $0.value.expires >= now }
        codes = codes.filter { $0.value.expires >= now }
        let stale = sessions.filter { $0.value.expires + 3_600_000 < now }
        for (wid, session) in stale {
            sessions[wid] = nil
            widByWebOTT[session.webOTT] = nil
            if !session.sessionToken.isEmpty { widBySessionToken[session.sessionToken] = nil }
        }
    }

    /// Counts of live records, for tests and the admin endpoint.
    func counts() -> [String: Int] {
        ["registrations": registrations.count, "identities": identities.count, "pass1": pass1.count,
         "auths": auths.count, "sessions": sessions.count, "codes": codes.count]
    }
}
