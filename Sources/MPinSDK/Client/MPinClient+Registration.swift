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
    public func startRegistration(
        _ user: User, activateCode: String = "", userData: String = "",
        accessCode: String = "", pushToken: String = ""
    ) async throws(MPinError) {
        let arguments = [
            NamedValue("activateCode", activateCode), NamedValue("userData", userData),
            NamedValue("accessCode", accessCode), NamedValue("pushToken", pushToken),
        ]
        try await perform("startRegistration", arguments, user: user) { () async throws(MPinError) in
            try await register(
                user,
                .start(
                    activateCode: activateCode, userData: userData, accessCode: accessCode,
                    pushToken: pushToken))
        }
    }

    /// Asks the server to restart the identity verification of a user in STARTED_REGISTRATION
    /// (`RestartRegistration`), keeping its M-Pin ID. The user becomes ACTIVATED when the server says so.
    public func restartRegistration(_ user: User, userData: String = "") async throws(MPinError) {
        try await perform("restartRegistration", [NamedValue("userData", userData)], user: user) {
            () async throws(MPinError) in
            try await register(user, .restart(userData: userData))
        }
    }

    /// Fetches both client-secret shares once the identity is verified (`ConfirmRegistration`,
    /// docs/protocol.md §3.2). The shares stay in memory until `finishRegistration`; the state is unchanged.
    /// - Throws: IDENTITY_NOT_VERIFIED (400/401 on the signature), REQUEST_EXPIRED (408 from the
    ///   D-TA), REGISTRATION_EXPIRED (404, MFA platform), FLOW_ERROR (state).
    public func confirmRegistration(_ user: User, pushMessageIdentifier: String = "") async throws(MPinError) {
        try await perform(
            "confirmRegistration", [NamedValue("pushMessageIdentifier", pushMessageIdentifier)],
            user: user
        ) { () async throws(MPinError) in
            try await register(user, .confirm(pushMessageIdentifier: pushMessageIdentifier))
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
        try await perform(
            "finishRegistration", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? "")],
            user: user
        ) { () async throws(MPinError) in
            try await register(user, .finish(pin: pin, secondFactor: secondFactor))
        }
    }

    /// Runs a `RegistrationFlow` for one call.
    private func register(_ user: User, _ call: RegistrationFlow.Call) async throws(MPinError) {
        let context = RegistrationFlow.Context(
            settings: settings, userID: user.id, deviceName: user.deviceName, backendKey: backendKey,
            knownKeys: Set(users.keys), flavour: options.flavour, pinMapping: options.pinMapping)
        var flow = RegistrationFlow(call, context: context, record: user.record)
        var action = flow.start()
        while true {
            switch action {
            case .send(let request): action = flow.received(await send(request))
            case .computeToken(let input): action = flow.tokenComputed(try computeToken(input))
            case .update(let update): action = flow.updated(apply(update, to: user))
            case .finish: return
            case .fail(let error): throw error
            }
        }
    }
}
