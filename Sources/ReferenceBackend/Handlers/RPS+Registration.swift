import CommonFormats
import MPinCrypto
import OrderedJSON

/// Registration: `PUT /rps/user[/<mpinId>]`, `GET /rps/signature/<mpinId>` and the activation
/// paths of the demo RPA (docs/protocol.md §3.1, §3.2, §8.2, §8.3).
extension BackendCore {
    func register(_ call: Call, restarting restartID: String?) async throws(APIError) -> Reply {
        let body = try call.json()
        guard let userID = try body.optionalString("userId", maxLength: 256), !userID.isEmpty else {
            throw APIError(.badRequest, "UserId required")
        }
        let activateCode = try body.optionalString("activateCode", maxLength: 256) ?? ""
        let wid = try body.optionalString("wid", maxLength: 256) ?? ""
        _ = try body.optionalString("deviceName", maxLength: 256)
        _ = try body.optionalString("userData")
        _ = try body.optionalString("pushToken")
        // The client says whether it is a phone app (1) or a browser (0); the M-Pin ID and the
        // D-TA's parameters carry what it said. Absent, the default profile takes 1, what the SDK sends.
        let mobile = try body.mobileFlag(absent: 1)
        let now = self.now
        let mfa = configuration.flavour == .mfaPlatform
        if mfa && restartID == nil {
            guard !wid.isEmpty, await store.hasLiveSession(wid: wid, now: now) else {
                throw APIError(.badRequest, "Invalid access id")
            }
        }

        let mpinID: String
        var previouslyActive = false
        if let restartID {
            _ = try mpinIDBytes(restartID)
            let regOTT = try body.string("regOTT", maxLength: 256)
            guard let record = await store.registration(restartID, now: now) else {
                throw APIError(mfa ? .notFound : .badRequest, "No registration in progress for this M-Pin ID")
            }
            guard HMACSHA256.equal(record.regOTT, regOTT), record.userID == userID else {
                throw APIError(.badRequest, "The regOTT or user id does not match the registration")
            }
            mpinID = restartID
            previouslyActive = record.active
        } else {
            mpinID = newMpinID(userID: userID, mobile: mobile, now: now)
        }

        let active: Bool
        switch configuration.activation {
        case .auto:
            active = true
        case .email:
            active = previouslyActive
        case .code where restartID != nil:
            // The restart request carries no code; the registration it restarts was activated by one.
            active = previouslyActive
        case .code:
            guard !activateCode.isEmpty else {
                throw APIError(.forbidden, "An activation code is required: request one with POST /activationCode")
            }
            switch await store.redeemActivationCode(userID: userID, code: activateCode, now: now) {
            case .ok:
                break
            case .none, .wrong:
                // The message of a wrong try stays as it was, so the recorded flows keep their bytes.
                throw APIError(.forbidden, "Invalid or expired activation code")
            case .cancelled:
                throw APIError(
                    .forbidden,
                    "Wrong activation code: after \(configuration.activationCodeTries) wrong tries the code is cancelled; "
                        + "request a new one with POST /activationCode")
            case .tooManyWrong(let wait):
                throw APIError(
                    .tooManyRequests,
                    "Too many wrong activation codes for this user: no code is taken for "
                        + "\(BackendStore.seconds(wait)) s")
            }
            active = true
        }

        let regOTT = random.hex(16)
        let activateKey = signer.activateKey(mpinID: mpinID, regOTT: regOTT)
        let expires = now + milliseconds(configuration.registrationLifetime)
        try await store.putRegistration(
            RegistrationRecord(
                mpinID: mpinID, userID: userID, regOTT: regOTT, activateKey: activateKey,
                active: active, expires: expires), now: now, client: call.client)
        if !active && configuration.activation == .email {
            let link =
                base.url + "/mpinActivate?"
                + QueryString.build([("i", mpinID), ("e", String(expires)), ("s", activateKey)])
            await deliver(ActivationMessage(kind: .link, userID: userID, mpinID: mpinID, value: link))
        }
        var members: [(String, JSONValue)] = [("mpinId", .string(mpinID)), ("regOTT", .string(regOTT))]
        if mfa {
            members += [
                ("expireTime", ""), ("nowTime", ""), ("active", .bool(active)), ("customerId", .string(customerID)),
                ("appId", .string(appID)),
            ]
        } else {
            members += [
                ("expireTime", .string(CivilTime.issued(milliseconds: expires))),
                ("nowTime", .string(CivilTime.issued(milliseconds: now))), ("active", .bool(active)),
            ]
        }
        return .ok(members)
    }

    /// A fresh M-Pin ID: the hex of a JSON document naming the user and the client's `mobile`
    /// flag, in the open-source RPS's form (Milagro) or the platform's (MFA).
    func newMpinID(userID: String, mobile: Int, now: Int64) -> String {
        let salt = random.hex(16)
        let name = JSONWriter.quoted(userID, escapingDelete: false)
        let document: String
        switch configuration.flavour {
        case .milagro:
            document =
                "{\"mobile\": \(mobile), \"issued\": \"\(CivilTime.issued(milliseconds: now))\", \"userID\": \(name), "
                + "\"salt\": \"\(salt)\"}"
        case .mfaPlatform:
            document =
                "{\"issued\":\"\(CivilTime.iso8601(milliseconds: now))\",\"userID\":\(name),\"cID\":\"\(customerID)\","
                + "\"mobile\":\(mobile),\"salt\":\"\(salt)\"}"
        }
        return Hex.encode(Array(document.utf8))
    }

    /// The `mobile` member of an M-Pin ID's document (0 or 1, as `newMpinID` wrote it); 1 for a
    /// document without one or that is not JSON (an ID this backend did not issue).
    static func mobileFlag(ofMpinID id: [UInt8]) -> Int {
        guard let document = try? JSONParser.parse(id), case .object(let members) = document,
            let flag = try? JSONBody(members: members).mobileFlag(absent: 1)
        else { return 1 }
        return flag
    }

    func deliver(_ message: ActivationMessage) async {
        await store.post(message)
        mail(message)
    }

    /// Client-secret share 1 and the signed parameters for share 2. The registration record is
    /// consumed by the first good request: a second one gets 400 (IDENTITY_NOT_VERIFIED).
    func signature(_ call: Call, mpinIDHex: String) async throws(APIError) -> Reply {
        let id = try mpinIDBytes(mpinIDHex)
        guard let regOTT = call.query["regOTT"], !regOTT.isEmpty else {
            throw APIError(.badRequest, "Missing parameter 'regOTT'")
        }
        let now = self.now
        switch await store.consumeRegistration(mpinID: mpinIDHex, regOTT: regOTT, now: now, client: call.client) {
        case .unknown:
            throw APIError(
                configuration.flavour == .mfaPlatform ? .notFound : .badRequest,
                "No registration for this M-Pin ID (unknown, expired or already signed)")
        case .wrongRegOTT:
            throw APIError(.badRequest, "Wrong regOTT: the registration is cancelled")
        case .notActive:
            throw APIError(.unauthorized, "The identity is not verified yet")
        case .full(let error):
            throw error
        case .ok:
            break
        }
        let hashMpinID = Hex.encode(mpin.hashID(id))
        let expires = CivilTime.iso8601(milliseconds: now + milliseconds(configuration.signatureLifetime))
        let signature = signer.clientSecret(appID: appID, hashMpinID: hashMpinID, hashUserID: "", expires: expires)
        let params = QueryString.build([
            ("app_id", appID), ("expires", expires), ("hash_mpin_id", hashMpinID),
            ("hash_user_id", ""), ("mobile", String(Self.mobileFlag(ofMpinID: id))), ("signature", signature),
        ])
        // Share 1 comes from the local D-TA through the same signed-request check as share 2.
        let share = try clientSecretShare(dta1, QueryString.parse(params) ?? [:], now: now)
        return .ok([("clientSecretShare", .string(Hex.encode(share))), ("params", .string(params))])
    }

    /// The activation link of the e-mail mode: `GET /mpinActivate?i=<mpinId>&e=<expires>&s=<key>`.
    func activate(_ call: Call) async throws(APIError) -> Reply {
        guard let mpinID = call.query["i"], let key = call.query["s"], !mpinID.isEmpty, !key.isEmpty else {
            throw APIError(.badRequest, "The activation link needs 'i' and 's'")
        }
        guard await store.activate(mpinID: mpinID, key: key, now: now) else {
            throw APIError(.unauthorized, "Invalid or expired activation link")
        }
        return .ok([("message", "Identity verified: return to the app to finish the registration")])
    }

    /// Code mode: "mails" a one-time activation code to the user; the app then starts the
    /// registration with it as `activateCode`.
    func requestActivationCode(_ call: Call) async throws(APIError) -> Reply {
        let body = try call.json()
        let userID = try body.string("userId", maxLength: 256)
        let code = random.digits(8)
        let now = self.now
        try await store.putActivationCode(
            userID: userID, code: code, expires: now + milliseconds(configuration.registrationLifetime), now: now,
            client: call.client)
        await deliver(ActivationMessage(kind: .code, userID: userID, mpinID: "", value: code))
        return .ok([("message", "An activation code was sent")])
    }
}
