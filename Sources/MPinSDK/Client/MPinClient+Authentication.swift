import MPinCrypto
import MilagroProtocol
import OrderedJSON

extension MPinClient {
    /// Prepares authentication of a REGISTERED user (`StartAuthentication`, docs/protocol.md §3.4): tells a
    /// browser session the user is coming (when an access code is given and the backend has a
    /// `codeStatusURL`; the answer is ignored) and fetches both time-permit shares unless the
    /// backend says `usePermits: false`. Share 2 is reused from the cache when its day matches.
    /// - Throws: REVOKED (410 on a time permit), FLOW_ERROR (state, no backend), ...
    public func startAuthentication(_ user: User, accessCode: String = "") async throws(MPinError) {
        try await perform("startAuthentication", [NamedValue("accessCode", accessCode)], user: user) {
            () async throws(MPinError) in
            var flow = TimePermitFlow(settings: settings, userID: user.id, record: user.record, accessCode: accessCode)
            var action = flow.start()
            while true {
                switch action {
                case .send(let request): action = flow.received(await send(request))
                case .update(let update): action = flow.updated(apply(update, to: user))
                case .finish: return
                case .fail(let error): throw error
                }
            }
        }
    }

    /// Checks an access number's check digit (`CheckAccessNumber`, docs/protocol.md §5.2). Only a
    /// seven-digit number on a backend with the checksum on is checked; anything non-empty passes
    /// otherwise.
    /// - Throws: INCORRECT_ACCESS_NUMBER, with the reason.
    public func checkAccessNumber(_ accessNumber: String) async throws(MPinError) {
        try await perform("checkAccessNumber", [NamedValue("accessNumber", accessNumber)]) {
            () async throws(MPinError) in
            if accessNumber.isEmpty { throw MPinError(.incorrectAccessNumber, "The access number is empty") }
            let current = settings ?? ClientSettings()
            guard current.checksAccessNumberDigit else { return }
            if let problem = AccessNumber.problem(with: accessNumber) {
                throw MPinError(.incorrectAccessNumber, "Incorrect access number: \(problem)")
            }
        }
    }

    /// Authenticates to the RPA (`FinishAuthentication`, docs/protocol.md §3.6) and returns its answer
    /// (`authResultData`, the response body as text).
    /// - Throws: INCORRECT_PIN (401; 410 also blocks the user and deletes its token),
    ///   PIN_INPUT_CANCELED, FLOW_ERROR, REQUEST_EXPIRED, IDENTITY_NOT_AUTHORIZED, ...
    @discardableResult
    public func finishAuthentication(_ user: User, pin: String, secondFactor: String? = nil) async throws(MPinError)
        -> String
    {
        try await perform(
            "finishAuthentication", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? "")],
            user: user, outputs: { [NamedValue("authResultData", $0)] }
        ) { () async throws(MPinError) in
            guard
                case .resultData(let text) = try await authenticate(
                    user, pin: pin, secondFactor: secondFactor, accessNumber: "",
                    ending: .resultData)
            else { return "" }
            return text
        }
    }

    /// Authenticates and asks for a one-time password (`FinishAuthenticationOTP`). The OTP comes from
    /// the pass-2 answer, its times from the RPA; when they are missing the OTP's own status says
    /// so (RESPONSE_PARSE_ERROR) while the call succeeds.
    public func finishAuthenticationOTP(_ user: User, pin: String, secondFactor: String? = nil) async throws(MPinError)
        -> OTP
    {
        try await perform(
            "finishAuthenticationOTP", [NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? "")],
            user: user, outputs: Self.otpOutputs
        ) { () async throws(MPinError) in
            guard
                case .otp(let otp) = try await authenticate(
                    user, pin: pin, secondFactor: secondFactor, accessNumber: "",
                    ending: .otp)
            else { return OTP() }
            return otp
        }
    }

    /// Authenticates a browser session shown by an access number (`FinishAuthenticationAN`).
    /// Logout data in the answer is kept for `canLogout` / `logout`. The number is not checked
    /// locally; call `checkAccessNumber` first.
    /// - Throws: INCORRECT_ACCESS_NUMBER (412), INCORRECT_PIN (401, 410 blocks), ...
    public func finishAuthenticationAN(
        _ user: User, pin: String, accessNumber: String,
        secondFactor: String? = nil
    ) async throws(MPinError) {
        try await perform(
            "finishAuthenticationAN",
            [
                NamedValue("pin", pin), NamedValue("accessNumber", accessNumber),
                NamedValue("secondFactor", secondFactor ?? ""),
            ],
            user: user
        ) { () async throws(MPinError) in
            _ = try await authenticate(
                user, pin: pin, secondFactor: secondFactor, accessNumber: accessNumber, ending: .accessNumber)
        }
    }

    /// MFA platform: authenticates the browser session of an access code (the access-number flow
    /// with the code as `WID`).
    public func finishAuthentication(
        _ user: User, pin: String, secondFactor: String? = nil,
        accessCode: String
    ) async throws(MPinError) {
        try await perform(
            "finishAuthenticationAC",
            [
                NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? ""),
                NamedValue("accessCode", accessCode),
            ],
            user: user
        ) { () async throws(MPinError) in
            _ = try await authenticate(
                user, pin: pin, secondFactor: secondFactor, accessNumber: accessCode, ending: .accessNumber)
        }
    }

    /// MFA platform in-app login: authenticates with `authzRequest: true` and returns the OIDC
    /// authorization code of the answer (`"code"`).
    public func finishAuthenticationAuthz(
        _ user: User, pin: String, secondFactor: String? = nil,
        accessCode: String
    ) async throws(MPinError) -> String {
        try await perform(
            "finishAuthenticationAuthz",
            [
                NamedValue("pin", pin), NamedValue("secondFactor", secondFactor ?? ""),
                NamedValue("accessCode", accessCode),
            ],
            user: user, outputs: { [NamedValue("authorizationCode", $0)] }
        ) { () async throws(MPinError) in
            guard
                case .authorizationCode(let code) = try await authenticate(
                    user, pin: pin, secondFactor: secondFactor,
                    accessNumber: accessCode, ending: .authorizationCode)
            else { return "" }
            return code
        }
    }

    /// Whether a browser session can be logged out from here (`CanLogout`).
    public func canLogout(_ user: User) async -> Bool {
        (try? await perform("canLogout", [], user: user, outputs: { [NamedValue("canLogout", String($0))] }) {
            () async throws(MPinError) in
            let record = user.record
            return !record.logoutData.isEmpty && !record.logoutURL.isEmpty
        }) ?? false
    }

    /// Logs the browser session out (`Logout`, docs/protocol.md §3.9): posts the logout data to
    /// `backend + logoutURL`. True on 200 (the data is then forgotten), false otherwise.
    @discardableResult
    public func logout(_ user: User) async -> Bool {
        (try? await perform("logout", [], user: user, outputs: { [NamedValue("loggedOut", String($0))] }) {
            () async throws(MPinError) in
            let record = user.record
            guard !record.logoutData.isEmpty, !record.logoutURL.isEmpty else {
                throw MPinError.flow("No logout data: authenticate with an access number first")
            }
            let body = (try? JSONParser.parseRefusingByteOrderMark(record.logoutData)) ?? .string(record.logoutData)
            _ = try await request(.logout, .post, backendURL + record.logoutURL, body: body, expectJSON: false)
            user.update {
                $0.logoutData = ""
                $0.logoutURL = ""
            }
            return true
        }) ?? false
    }

    static func otpOutputs(_ otp: OTP) -> [NamedValue] {
        [
            NamedValue("otp", otp.otp), NamedValue("expireTime", String(otp.expireTime)),
            NamedValue("ttlSeconds", String(otp.ttlSeconds)), NamedValue("nowTime", String(otp.nowTime)),
            NamedValue("status", otp.status.code.name),
        ]
    }

    /// Runs an `AuthenticationFlow`: pass 1, pass 2, the RPA login and the call's ending
    /// (`FinishAuthenticationImpl`, docs/protocol.md §3.6 and §6.4).
    private func authenticate(
        _ user: User, pin: String, secondFactor: String?, accessNumber: String,
        ending: AuthenticationFlow.Ending
    ) async throws(MPinError) -> AuthenticationFlow.Outcome {
        var flow = AuthenticationFlow(
            settings: settings, userID: user.id, record: user.record, pin: pin, secondFactor: secondFactor,
            accessNumber: accessNumber, ending: ending, flavour: options.flavour,
            pinMapping: options.pinMapping)
        var action = flow.start()
        while true {
            switch action {
            case .computePass1(let input): action = flow.pass1Computed(try computePass1(input))
            case .send(let request): action = flow.received(await send(request))
            case .computePass2(let x, let y, let sec):
                action = flow.pass2Computed(v: try computePass2(x: x, y: y, sec: sec))
            case .update(let update): action = flow.updated(apply(update, to: user))
            case .readClock(let purpose): action = flow.clockRead(now(for: purpose))
            case .finish(let outcome): return outcome
            case .fail(let error): throw error
            }
        }
    }
}
