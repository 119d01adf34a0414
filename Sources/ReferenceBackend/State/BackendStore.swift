/// All mutable state of the backend, behind one actor so that concurrent requests see it
/// consistently. Expensive crypto never runs in here; handlers do it before or after.
///
/// Every store a client can add to (pending registrations, identities, pass-1 challenges, pass-2
/// verdicts, browser sessions of access numbers and QR codes, activation codes, authorization
/// codes) is a `ClientQuotaTable`: each record belongs to the client that added it
/// (`ClientAddress`), a client holds at most `clientCapacity` records of a kind (`clientRecordLimit`,
/// 1,000 by default) and a store at most `capacity` (`recordLimit`, 10,000). Past a cap, expired
/// records are swept first (at most once a second), then the oldest record of the client itself
/// (at its own cap) or of the client holding the most (at the store's cap) makes room: a flood
/// from one client drops its own records, never the others'. Identities are never dropped: past a
/// cap the signature is refused with 503 (to that client only, at its own cap), and so is a
/// session while its phone's login is held. The RPA's oldest browser session is forgotten to make
/// room for a new one, and the mailbox keeps the newest `capacity` messages. Records that already
/// exist are replaced in place, even at the caps.
///
/// Activation codes are also rate limited (`RateLimiter`, on the backend's clock): per user and
/// per client when issued, and a user's wrong codes across every code issued to it.
actor BackendStore {
    /// The most records of each kind.
    let capacity: Int
    /// The most records of each kind one client holds.
    let clientCapacity: Int
    /// Wrong activation codes that cancel a user's code.
    let activationCodeTries: Int
    /// When expired records were last swept because a store was full (backend clock, ms).
    private var lastFullSweep = Int64.min
    private var codesPerUser: RateLimiter
    private var codesPerClient: RateLimiter
    private var wrongCodesPerUser: RateLimiter

    init(_ configuration: BackendConfiguration) {
        capacity = max(1, configuration.recordLimit)
        clientCapacity = max(1, min(configuration.clientRecordLimit, configuration.recordLimit))
        activationCodeTries = max(1, configuration.activationCodeTries)
        // Keys enough for every user with a live code, and for as many clients.
        let keys = max(capacity * 2, 1_000)
        codesPerUser = RateLimiter(configuration.activationCodesPerUser, maximumKeys: keys)
        codesPerClient = RateLimiter(configuration.activationCodesPerClient, maximumKeys: keys)
        wrongCodesPerUser = RateLimiter(configuration.wrongActivationCodesPerUser, maximumKeys: keys)
    }

    /// A store with these caps (`clientCapacity` nil: as `capacity`) and the configuration's other limits.
    init(capacity: Int = 10_000, clientCapacity: Int? = nil, activationCodeTries: Int = 3) {
        var configuration = BackendConfiguration()
        configuration.recordLimit = capacity
        configuration.clientRecordLimit = clientCapacity ?? capacity
        configuration.activationCodeTries = activationCodeTries
        self.init(configuration)
    }

    /// The phones' logins held for a browser; resolved from inside this actor by the browser's login.
    nonisolated let holds = LoginHolds()
    private var registrations = ClientQuotaTable<RegistrationRecord>()
    private var identities = ClientQuotaTable<IdentityRecord>()
    private var revokedUsers: Set<String> = []
    private var revokedIDs: Set<String> = []
    private var pass1 = ClientQuotaTable<Pass1Record>()
    private var auths = ClientQuotaTable<AuthRecord>()
    private var sessions = ClientQuotaTable<BrowserSession>()
    private var widByWebOTT: [String: String] = [:]
    /// The session of each held phone login, by authOTT.
    private var heldWIDs: [String: String] = [:]
    /// Browser sessions logged in by the demo RPA, by session token.
    private var rpaSessions: [String: RPASession] = [:]
    private var codes = ClientQuotaTable<AuthorizationCode>()
    private var activationCodes = ClientQuotaTable<(code: String, expires: Int64, wrongTries: Int)>()
    /// Time-permit share 1 of each M-Pin ID for the days fetched last (one run of days per identity).
    private var permitShares: [String: KeptPermitShares] = [:]
    private(set) var mailbox: [ActivationMessage] = []
    private var insertions = 0

    // MARK: - Registration

    func putRegistration(_ record: RegistrationRecord, now: Int64, client: ClientAddress = .unknown) throws(APIError) {
        sweep(now: now)
        sweepIfFull(registrations, record.mpinID, client: client, now: now)
        _ = try add(record.mpinID, record, to: &registrations, "pending registrations", client: client)
    }

    func registration(_ mpinID: String, now: Int64) -> RegistrationRecord? {
        guard let record = registrations[mpinID], record.expires >= now else { return nil }
        return record
    }

    /// Marks a registration active when `key` is its activation key; false when none matches.
    func activate(mpinID: String, key: String, now: Int64) -> Bool {
        guard var record = registration(mpinID, now: now), HMACSHA256.equal(record.activateKey, key) else {
            return false
        }
        record.active = true
        registrations[mpinID] = record
        return true
    }

    enum SignatureCheck {
        case unknown, wrongRegOTT, notActive
        /// The identities are at the cap: the registration stays for a later try.
        case full(APIError)
        case ok(RegistrationRecord)
    }

    /// The signature request's check: a wrong regOTT deletes the record (as the open-source RPS
    /// does); a right one on an active record consumes it and issues the identity.
    func consumeRegistration(mpinID: String, regOTT: String, now: Int64, client: ClientAddress = .unknown)
        -> SignatureCheck
    {
        guard let record = registration(mpinID, now: now) else { return .unknown }
        guard HMACSHA256.equal(record.regOTT, regOTT) else {
            registrations[mpinID] = nil
            return .wrongRegOTT
        }
        guard record.active else { return .notActive }
        do throws(APIError) {
            _ = try add(
                mpinID, IdentityRecord(userID: record.userID), to: &identities, "identities", client: client,
                evictable: nil)
        } catch {
            return .full(error)
        }
        registrations[mpinID] = nil
        return .ok(record)
    }

    /// An identity the `milagro-oss` profile issued from its own store (`OpenSourceStore`), so that
    /// the operator tools (revoke) know it: under the store's cap only, not a client's quota (that
    /// server has none); at the cap it is not learned.
    func learnIdentity(mpinID: String, userID: String) {
        _ = identities.insert(
            mpinID, IdentityRecord(userID: userID), owner: .unknown, capacity: capacity, perClient: capacity,
            evictable: nil)
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

    // MARK: - Time-permit share 1

    /// The RPS's copy of an ID's share 1 for `date`, if it has fetched that day (docs/protocol.md §8.2: the
    /// RPS keeps the shares it fetched from its D-TA).
    func timePermitShare(_ mpinID: String, date: UInt32) -> [UInt8]? {
        permitShares[mpinID]?.share(for: date)
    }

    /// Keeps an ID's share 1 for the days `first`, `first + 1`, ..., one share each, in place of the
    /// days kept before.
    func keepTimePermitShares(_ mpinID: String, from first: UInt32, _ shares: [[UInt8]]) {
        permitShares[mpinID] = KeptPermitShares(first: first, shares: shares)
    }

    /// The days whose share 1 is kept for an ID.
    func keptTimePermitDays(_ mpinID: String) -> Range<UInt32>? {
        permitShares[mpinID]?.days
    }

    // MARK: - Activation codes and mail

    /// Issues `code` to a user (in place of any code it had) when the rates allow: per user and per
    /// client (429 past either, with the wait in the message; a refused request counts for neither).
    func putActivationCode(userID: String, code: String, expires: Int64, now: Int64, client: ClientAddress = .unknown)
        throws(APIError)
    {
        let userWait = codesPerUser.wait(userID, now: now),
            clientWait = codesPerClient.wait(client.description, now: now)
        guard userWait == 0, clientWait == 0 else {
            let whose = userWait > 0 ? "this user" : "this client"
            throw APIError(
                .tooManyRequests,
                "Too many activation codes for \(whose): try again in \(Self.seconds(max(userWait, clientWait))) s")
        }
        // A new code replaces the user's old one in place.
        activationCodes[userID] = nil
        sweepIfFull(activationCodes, userID, client: client, now: now)
        _ = try add(userID, (code, expires, 0), to: &activationCodes, "activation codes", client: client)
        codesPerUser.count(userID, now: now)
        codesPerClient.count(client.description, now: now)
    }

    /// Whole seconds, rounded up, of a wait in milliseconds.
    static func seconds(_ milliseconds: Int64) -> Int64 { (milliseconds + 999) / 1000 }

    enum CodeRedemption: Equatable {
        case ok
        /// No live code for the user (never requested, expired, used or cancelled).
        case none
        /// A wrong code; `left` more wrong tries cancel it.
        case wrong(left: Int)
        /// A wrong code that used up the tries: the code is cancelled.
        case cancelled
        /// The user's wrong codes (across its codes) are at their cap: no code is looked at, the
        /// right one neither, for this many more milliseconds.
        case tooManyWrong(wait: Int64)
    }

    /// Consumes the activation code of a user when `code` is it. A wrong code counts twice: for
    /// the code (the `activationCodeTries`-th wrong one cancels it, and the right one is refused
    /// after) and for the user, across codes: once the user's wrong codes are at their cap, every
    /// code is refused until it has room.
    func redeemActivationCode(userID: String, code: String, now: Int64) -> CodeRedemption {
        let wait = wrongCodesPerUser.wait(userID, now: now)
        if wait > 0 { return .tooManyWrong(wait: wait) }
        guard var entry = activationCodes[userID], entry.expires >= now else { return .none }
        if HMACSHA256.equal(entry.code, code) {
            activationCodes[userID] = nil
            return .ok
        }
        entry.wrongTries += 1
        wrongCodesPerUser.count(userID, now: now)
        if entry.wrongTries >= activationCodeTries {
            activationCodes[userID] = nil
            return .cancelled
        }
        activationCodes[userID] = entry
        return .wrong(left: activationCodeTries - entry.wrongTries)
    }

    /// Keeps `message`, dropping the oldest beyond `capacity`.
    func post(_ message: ActivationMessage) {
        mailbox.append(message)
        if mailbox.count > capacity { mailbox.removeFirst(mailbox.count - capacity) }
    }

    // MARK: - Passes

    func putPass1(mpinID: String, _ record: Pass1Record, now: Int64, client: ClientAddress = .unknown) throws(APIError)
    {
        sweep(now: now)
        sweepIfFull(pass1, mpinID, client: client, now: now)
        _ = try add(mpinID, record, to: &pass1, "pass-1 challenges", client: client)
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
    /// dropped (so that the authOTT is unknown later) when no live session waiting for a phone has it.
    func putAuth(authOTT: String, _ record: AuthRecord, now: Int64, client: ClientAddress = .unknown) throws(APIError) {
        sweep(now: now)
        sweepIfFull(auths, authOTT, client: client, now: now)
        if !record.wid.isEmpty {
            guard var session = sessions[record.wid], Self.isLive(session, now: now),
                [.new, .wid, .user].contains(session.status)
            else { return }
            _ = try add(authOTT, record, to: &auths, "pass-2 verdicts", client: client)
            session.authOTT = authOTT
            sessions[record.wid] = session
            return
        }
        _ = try add(authOTT, record, to: &auths, "pass-2 verdicts", client: client)
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
    /// With `directOnly`, the authOTT of an access-number or access-code login is `unknown` and
    /// stays for the phone (the RPA's login presents only direct ones for a verdict).
    func redeem(authOTT: String, now: Int64, maximumAttempts: Int, directOnly: Bool = false) -> Redemption {
        if directOnly, let record = auths[authOTT], !record.wid.isEmpty { return .unknown }
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

    /// Keeps a browser session; one dropped to make room (never one whose phone login is held)
    /// ends as an expired one does.
    func putSession(_ session: BrowserSession, now: Int64, client: ClientAddress = .unknown) throws(APIError) {
        sweep(now: now)
        sweepIfFull(sessions, session.wid, client: client, now: now)
        let dropped = try add(session.wid, session, to: &sessions, "browser sessions", client: client) {
            $0.status != .authenticate
        }
        for (wid, old) in dropped where widByWebOTT[old.webOTT] == wid { widByWebOTT[old.webOTT] = nil }
        widByWebOTT[session.webOTT] = session.wid
    }

    /// A session is live while it waits for a phone and its time has not run out, and while its
    /// phone's login is held for the browser.
    static func isLive(_ session: BrowserSession, now: Int64) -> Bool {
        switch session.status {
        case .expired: return false
        case .authenticate: return true
        case .new, .wid, .user, .aborted: return session.expires >= now
        }
    }

    func hasLiveSession(wid: String, now: Int64) -> Bool {
        guard let session = sessions[wid] else { return false }
        return Self.isLive(session, now: now)
    }

    func session(wid: String, now: Int64) -> BrowserSession? {
        guard let session = sessions[wid], Self.isLive(session, now: now) else { return nil }
        return session
    }

    enum SessionLookup {
        /// No session ever had this webOTT.
        case unknown
        /// It had one, now over: the user it had, if any.
        case expired(userID: String)
        case live(BrowserSession)
    }

    /// The session of a webOTT, as the browser's poll sees it.
    func session(webOTT: String, now: Int64) -> SessionLookup {
        guard let wid = widByWebOTT[webOTT] else { return .unknown }
        guard let session = sessions[wid], session.webOTT == webOTT else { return .expired(userID: "") }
        return Self.isLive(session, now: now) ? .live(session) : .expired(userID: session.userID)
    }

    /// Changes a live session; nil when there is none.
    @discardableResult
    func updateSession(wid: String, now: Int64, _ change: (inout BrowserSession) -> Void) -> BrowserSession? {
        guard var session = sessions[wid], Self.isLive(session, now: now) else { return nil }
        change(&session)
        sessions[wid] = session
        return session
    }

    // MARK: - Held logins (docs/protocol.md §8.2, §13)

    /// The phone's right PIN for a session: opens the hold of its authOTT (counted before the
    /// browser can see it), then shows the session as `authenticate` with the user and the
    /// authOTT, and, for an OIDC session, the authorization code of the browser's redirect. Nil
    /// when the session is gone or no longer waits for this authOTT.
    func beginHeldLogin(wid: String, authOTT: String, userID: String, browserCode: String, now: Int64)
        -> BrowserSession?
    {
        guard var session = sessions[wid], Self.isLive(session, now: now), session.authOTT == authOTT,
            [.new, .wid, .user].contains(session.status)
        else { return nil }
        holds.open(authOTT)
        session.status = .authenticate
        session.userID = userID
        if !session.redirectURI.isEmpty { session.browserCode = browserCode }
        sessions[wid] = session
        heldWIDs[authOTT] = wid
        return session
    }

    /// The browser's login at the RPA with the authOTT of a held phone login: makes the RPA's
    /// browser session (its token from `makeToken`), ends the access session (later polls say
    /// `expired`) and releases the phone, all before the browser's answer is written. Nil when no
    /// phone login with that authOTT is held (never was, timed out, or already picked up).
    func completeHeldLogin(authOTT: String, now: Int64, makeToken: () -> String) -> (
        sessionToken: String, userID: String
    )? {
        guard let wid = heldWIDs[authOTT], var session = sessions[wid], session.status == .authenticate,
            holds.isWaiting(authOTT)
        else { return nil }
        let token = makeToken()
        guard holds.resolve(authOTT, .loggedIn(sessionToken: token, userID: session.userID)) else { return nil }
        heldWIDs[authOTT] = nil
        session.status = .expired
        sessions[wid] = session
        if rpaSessions.count >= capacity {
            sweepExpired(now: now)
            if rpaSessions.count >= capacity,
                let oldest = rpaSessions.min(by: { $0.value.expires < $1.value.expires })?.key
            {
                rpaSessions[oldest] = nil
            }
        }
        rpaSessions[token] = RPASession(userID: session.userID, loggedIn: true, expires: now + Self.rpaSessionLifetime)
        return (token, session.userID)
    }

    /// A held login that no browser picked up in time: its session ends (later polls say `expired`).
    func endHeldLogin(authOTT: String) {
        guard let wid = heldWIDs.removeValue(forKey: authOTT), var session = sessions[wid] else { return }
        session.status = .expired
        sessions[wid] = session
    }

    // MARK: - The RPA's browser sessions

    /// How long the RPA remembers a browser session, in milliseconds (a day).
    static let rpaSessionLifetime: Int64 = 86_400_000

    func rpaSession(token: String, now: Int64) -> RPASession? {
        guard let session = rpaSessions[token], session.expires >= now else { return nil }
        return session
    }

    /// Logs a browser session out by its session token; false when the token or user do not match
    /// or it is already logged out.
    func logout(sessionToken: String, userID: String, now: Int64) -> Bool {
        guard var session = rpaSession(token: sessionToken, now: now), session.loggedIn, session.userID == userID else {
            return false
        }
        session.loggedIn = false
        rpaSessions[sessionToken] = session
        return true
    }

    // MARK: - Authorization codes

    func putCode(_ code: String, _ record: AuthorizationCode, now: Int64, client: ClientAddress = .unknown)
        throws(APIError)
    {
        sweepIfFull(codes, code, client: client, now: now)
        _ = try add(code, record, to: &codes, "authorization codes", client: client)
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
        sweepExpired(now: now)
    }

    /// Adds a client's record to `table` under the caps (`ClientQuotaTable`), once `sweepIfFull`
    /// has had its turn: a record that `evictable` lets go makes room (nil: none may go); else a
    /// 503 that names the store and the cap. Returns the records dropped.
    private func add<Value>(
        _ key: String, _ value: Value, to table: inout ClientQuotaTable<Value>, _ what: String,
        client: ClientAddress,
        evictable: ((Value) -> Bool)? = { _ in true }
    ) throws(APIError) -> [(key: String, value: Value)] {
        switch table.insert(
            key, value, owner: client, capacity: capacity, perClient: clientCapacity, evictable: evictable)
        {
        case .added(let dropped):
            return dropped
        case .full:
            let whose =
                table.count(of: client) >= clientCapacity
                ? "holds \(clientCapacity) \(what) of this client, its limit per client"
                : "holds \(capacity) \(what), its limit"
            throw APIError(.serviceUnavailable, "The backend \(whose): try again once some have expired")
        }
    }

    /// Sweeps expired records when `table` has no room for `client`'s new `key` (at most once a
    /// second of the backend's clock), before `add` makes room by dropping live ones.
    private func sweepIfFull<Value>(_ table: ClientQuotaTable<Value>, _ key: String, client: ClientAddress, now: Int64)
    {
        guard table[key] == nil, table.count >= capacity || table.count(of: client) >= clientCapacity else { return }
        guard now >= lastFullSweep &+ 1000 || now < lastFullSweep else { return }
        lastFullSweep = now
        sweepExpired(now: now)
    }

    private func sweepExpired(now: Int64) {
        activationCodes.removeAll { $0.expires < now }
        registrations.removeAll { $0.expires < now }
        pass1.removeAll { $0.expires < now }
        auths.removeAll { $0.expires < now }
        codes.removeAll { $0.expires < now }
        let stale = sessions.filter { $0.value.expires + 3_600_000 < now }
        for (wid, session) in stale where session.status != .authenticate {
            sessions[wid] = nil
            if widByWebOTT[session.webOTT] == wid { widByWebOTT[session.webOTT] = nil }
        }
        rpaSessions = rpaSessions.filter { $0.value.expires >= now }
    }

    /// Counts of live records, for tests and the admin endpoint.
    func counts() -> [String: Int] {
        [
            "registrations": registrations.count, "identities": identities.count, "pass1": pass1.count,
            "auths": auths.count, "sessions": sessions.count, "codes": codes.count,
            "heldLogins": holds.count, "browserSessions": rpaSessions.count,
        ]
    }
}
