import CommonFormats
import MPinCrypto
import MilagroProtocol
import OrderedJSON

extension MPinClient {
    /// Starts registering a user in state INVALID (`StartRegistration`, docs/protocol.md §3.1): the server
    /// issues an M-Pin ID; the user becomes STARTED_REGISTRATION, or ACTIVATED when the server
    /// activated it at once, and is stored.
    ///
    /// - Parameters:
    ///   - user: the user to register, made by `makeNewUser(id:deviceName:)`.
    ///   - activateCode: a one-time activation code (MFA platform: the registration code), if any.
    ///   - userData: data for the RPA to verify the identity, if any.
    ///   - accessCode: MFA platform: the access code of the browser session (`wid`), if any.
    ///   - pushToken: MFA platform: the device's push token, if any.
    /// - Throws: FLOW_ERROR (state, no backend, user already known), IDENTITY_NOT_AUTHORIZED (403),
    ///   REGISTRATION_EXPIRED (404, MFA platform), HTTP_REQUEST_ERROR, ...
    public func startRegistration(_ user: User, activateCode: String = "", userData: String = "",
                                  accessCode: String = "", pushToken: String = "") async throws(MPinError) {
        let arguments = [NamedValue("activateCode", activateCode), NamedValue("userData", userData),
                         NamedValue("accessCode", accessCode), NamedValue("pushToken", pushToken)]
        try await perform("startRegistration", arguments, user: user) { () async throws(MPinError) in
            let settings = try requireBackend()
            try requireState(user, [.invalid], "StartRegistration")
            if options.flavour == .milagro, users[key(id: user.id, backend: backendKey, customerID: "", appID: "")] != nil {
                throw MPinError.flow("The user \(user.id) already exists on \(backendKey)")
            }
            var body: [JSONValue.Member] = [.init("userId", .string(user.id)), .init("mobile", .integer(1))]
            if !user.deviceName.isEmpty { body.append(.init("deviceName", .string(user.deviceName))) }
            if !userData.isEmpty { body.append(.init("userData", .string(userData))) }
            if !activateCode.isEmpty { body.append(.init("activateCode", .string(activateCode))) }
            if !accessCode.isEmpty { body.append(.init("wid", .string(accessCode))) }
            if !pushToken.isEmpty { body.append(.init("pushToken", .string(pushToken))) }
            let answer = try await request(.register, .put, settings.registerURL, body: .object(body))
            let mpinID = try required(answer, "mpinId", context: .register)
            let regOTT = try required(answer, "regOTT", context: .register)
            guard Hex.decode(mpinID) != nil else {
                throw MPinError(.responseParseError, "'mpinId' in the response is not hex", context: .init(request: "register"))
            }
            let customerID = answer.string("customerId") ?? ""
            let appID = answer.string("appId") ?? ""
            let newKey = key(id: user.id, backend: backendKey, customerID: customerID, appID: appID)
            if users[newKey] != nil {
                throw MPinError.flow("The user \(user.id) is already registered as \(newKey)")
            }
            let active = answer.json?[first: "active"]?.boolValue ?? false
            user.update {
                $0.backend = backendKey
                $0.mpinIDHex = mpinID
                $0.regOTT = regOTT
                $0.customerID = customerID
                $0.appID = appID
                $0.accessCode = accessCode
                $0.state = active ? .activated : .startedRegistration
            }
            users[newKey] = user
            try saveUsers()
        }
    }

    /// Asks the server to restart the identity verification of a user in STARTED_REGISTRATION
    /// (`RestartRegistration`), keeping its M-Pin ID. The user becomes ACTIVATED when the server says so.
    public func restartRegistration(_ user: User, userData: String = "") async throws(MPinError) {
        try await perform("restartRegistration", [NamedValue("userData", userData)], user: user) { () async throws(MPinError) in
            let settings = try requireBackend()
            try requireState(user, [.startedRegistration], "RestartRegistration")
            let record = user.record
            var body: [JSONValue.Member] = [.init("userId", .string(user.id)), .init("mobile", .integer(1))]
            if !user.deviceName.isEmpty { body.append(.init("deviceName", .string(user.deviceName))) }
            if !userData.isEmpty { body.append(.init("userData", .string(userData))) }
            if !record.accessCode.isEmpty { body.append(.init("wid", .string(record.accessCode))) }
            body.append(.init("regOTT", .string(record.regOTT)))
            let answer = try await request(.register, .put, settings.registerURL + "/" + record.mpinIDHex, body: .object(body))
            let regOTT = try required(answer, "regOTT", context: .register)
            let active = answer.json?[first: "active"]?.boolValue ?? false
            user.update {
                $0.regOTT = regOTT
                if let mpinID = answer.string("mpinId"), !mpinID.isEmpty { $0.mpinIDHex = mpinID }
                if active { $0.state = .activated }
            }
            try saveUsers()
        }
    }

    /// Fetches both client-secret shares once the identity is verified (`ConfirmRegistration`,
    /// docs/protocol.md §3.2). The shares stay in memory until `finishRegistration`; the state is unchanged.
    /// - Throws: IDENTITY_NOT_VERIFIED (400/401 on the signature), REQUEST_EXPIRED (408 from the
    ///   D-TA), REGISTRATION_EXPIRED (404, MFA platform), FLOW_ERROR (state).
    public func confirmRegistration(_ user: User, pushMessageIdentifier: String = "") async throws(MPinError) {
        try await perform("confirmRegistration", [NamedValue("pushMessageIdentifier", pushMessageIdentifier)],
                          user: user) { () async throws(MPinError) in
            let settings = try requireBackend()
            try requireState(user, [.startedRegistration, .activated], "ConfirmRegistration")
            let record = user.record
            var query = [("regOTT", record.regOTT)]
            if !pushMessageIdentifier.isEmpty { query.append(("pmiToken", pushMessageIdentifier)) }
            let signatureURL = QueryString.appending(query, to: settings.signatureURL + "/" + record.mpinIDHex)
            let signature = try await request(.getClientSecret1, .get, signatureURL)
            let share1 = try requiredHex(signature, "clientSecretShare", context: .getClientSecret1)
            let params = try required(signature, "params", context: .getClientSecret1)
            let secret = try await request(.getClientSecret2, .get, settings.certivoxURL + Endpoint.clientSecretOperation + "?" + params)
            let share2 = try requiredHex(secret, "clientSecret", context: .getClientSecret2)
            user.update {
                $0.clientSecret1 = share1
                $0.clientSecret2 = share2
            }
        }
    }

    /// Turns the client secret into the M-Pin token for a PIN and stores it (`FinishRegistration`,
    /// docs/protocol.md §3.3 and §6.4); the user becomes REGISTERED.
    ///
    /// `token = CS1 + CS2 − pin·H(ID)` (EXTRACT_PIN). With a second factor (MFA platform `pin1`),
    /// `token = CS1 + CS2 − pin·H(ID) − factor·H(ID)` (EXTRACT_FACTOR with 14 bits), where the
    /// factor is mapped to a scalar like the PIN; authentication restores it with RESTORE_FACTOR and
    /// then runs CLIENT_1 with the PIN, so both factors must be right.
    /// - Throws: PIN_INPUT_CANCELED (empty PIN), FLOW_ERROR (state, shares missing: call
    ///   `confirmRegistration` first), CRYPTO_ERROR, STORAGE_ERROR.
    public func finishRegistration(_ user: User, pin: String, secondFactor: String? = nil) async throws(MPinError) {
        try await perform("finishRegistration", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? "")],
                          user: user) { () async throws(MPinError) in
            try requireState(user, [.startedRegistration, .activated], "FinishRegistration")
            let record = user.record
            guard let share1 = record.clientSecret1, let share2 = record.clientSecret2 else {
                throw MPinError.flow("User identity not verified: call confirmRegistration first")
            }
            let pinValue = try pinScalar(pin)
            let factor = try secondFactor.map { (value: String) throws(MPinError) -> Int32 in
                try pinScalar(value, what: "second factor")
            }
            guard let mpinID = Hex.decode(record.mpinIDHex) else { throw MPinError(.cryptoError, "The M-Pin ID is not hex") }
            try reportIdentityHash(mpinID)
            let clientSecret = try recombine(share1, share2, "clientSecret")
            var token = try crypto("extractPIN", [hex("mpinId", mpinID), NamedValue("pin", String(pinValue)),
                                                  hex("clientSecret", clientSecret)], outputNames: ["token"]) {
                mpin.extractPIN(id: mpinID, pin: pinValue, token: clientSecret).map { [$0] }
            }[0]
            if let factor {
                let input = token
                token = try crypto("extractFactor", [hex("mpinId", mpinID), NamedValue("factor", String(factor)),
                                                     NamedValue("bits", String(MPin.pinBits)), hex("token", input)],
                                   outputNames: ["token"]) {
                    mpin.extractFactor(id: mpinID, factor: factor, bits: MPin.pinBits, token: input).map { [$0] }
                }[0]
            }
            let previous = user.record
            user.update {
                $0.token = Hex.encode(token)
                $0.state = .registered
                $0.regOTT = ""
                $0.clientSecret1 = nil
                $0.clientSecret2 = nil
            }
            do throws(MPinError) {
                try saveUsers()
            } catch {
                user.update { $0 = previous }
                throw error
            }
        }
    }
}
