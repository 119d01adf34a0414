import Conformance
import MPinCrypto
import ReferenceBackend

/// Every flow working against a backend that answers as it should (docs/protocol.md §3).
extension ClientCatalog {
    static let milagro: Set<BackendFlavour> = [.milagro]
    static let platform: Set<BackendFlavour> = [.mfaPlatform]

    static var flows: [ClientCase] {
        [
            ClientCase(
                "flow.register", .flow, .must, title: "The client registers a user",
                source: "docs/protocol.md §3.1–§3.3",
                backendDoes: "Answers the registration, the signature and both shares as it should.",
                expects: "register: every call returns OK."
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.register), "register")
            },
            ClientCase(
                "flow.login", .flow, .must, title: "A registered user logs in, in a later run",
                source: "docs/protocol.md §3.4, §3.6, §7",
                backendDoes: "Registers the user in one run of the client and logs it in in the next.",
                expects:
                    "register, then login (a new run, the storage kept in the case's folder): every call returns OK."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.run(.login), "login after register")
            },
            ClientCase(
                "flow.register-login", .flow, .must, title: "The client registers and logs in, in one run",
                source: "docs/protocol.md §3.1–§3.6",
                backendDoes: "Answers every request as it should.",
                expects: "register-login: every call returns OK."
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.registerLogin), "register-login")
            },
            ClientCase(
                "flow.wrong-pin", .flow, .must, title: "A wrong PIN is INCORRECT_PIN",
                source: "docs/protocol.md §3.6, §4",
                backendDoes: "Refuses the login with a wrong PIN (401 at the RPA).",
                expects: "wrong-pin: finishAuthentication returns INCORRECT_PIN."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.status(
                    try await context.run(.wrongPIN, pin: context.wrongPIN), .incorrectPIN,
                    source: "docs/protocol.md §4")
            },
            ClientCase(
                "flow.wrong-then-right", .flow, .must, title: "The right PIN after a wrong one logs in",
                source: "docs/protocol.md §3.6, docs/backend.md \"Server rules\"",
                backendDoes: "Refuses a wrong PIN, then accepts the right one.",
                expects: "wrong-pin returns INCORRECT_PIN; the login after it returns OK."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                let wrong = try await context.run(.wrongPIN, pin: context.wrongPIN)
                guard wrong.outcome == .incorrectPIN else {
                    return .fail("the wrong PIN gave \(wrong.outcome.name), not INCORRECT_PIN (\(wrong))")
                }
                return Grade.works(try await context.run(.login), "the login after a wrong PIN")
            },
            ClientCase(
                "flow.blocked", .flow, .must, title: "A blocked user cannot log in any more",
                source: "docs/protocol.md §3.6, §4 (410 blocks the user and deletes its token)",
                backendDoes: "Refuses three wrong PINs (401, 401, then 410: the user is blocked).",
                expects: "Each wrong-pin returns INCORRECT_PIN; the login after them does not return OK."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                for attempt in 1...3 {
                    let wrong = try await context.run(.wrongPIN, pin: context.wrongPIN)
                    guard wrong.outcome == .incorrectPIN else {
                        return .fail("wrong PIN \(attempt) gave \(wrong.outcome.name), not INCORRECT_PIN (\(wrong))")
                    }
                }
                let after = try await context.run(.login)
                guard let failure = after.firstFailure else {
                    return .fail("the login after the block returned OK on every call")
                }
                return .pass("after the block, \(failure.name) returned \(failure.status.name)")
            },
            ClientCase(
                "flow.otp", .flow, .should, title: "A login with a one-time password",
                source: "docs/protocol.md §3.6 (the OTP login)",
                backendDoes: "Answers pass 2 with an OTP when asked, and the RPA with its validity.",
                expects: "otp: every call returns OK."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.run(.otp), "otp")
            },
            ClientCase(
                "flow.access-number", .flow, .must, title: "The phone's login for a browser's access number",
                source: "docs/protocol.md §3.6, §5; docs/backend.md \"The held login\"",
                backendDoes:
                    "Gives the suite (the browser) an access number, holds the phone's login until the browser logs in.",
                expects: "access-number with MPIN_ACCESS_NUMBER: every call returns OK.",
                backend: CaseBackend(flavours: milagro)
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.runWithBrowser(.accessNumber), "access-number")
            },
            ClientCase(
                "flow.logout", .flow, .should, title: "The phone logs the browser session out",
                source: "docs/protocol.md §3.9",
                backendDoes:
                    "An access-number login, whose answer holds the logout data, then the logout (answered once the browser's login at the RPA has been).",
                expects: "logout: every call returns OK.",
                backend: CaseBackend(flavours: milagro) { _ in loggedInFirst }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.runWithBrowser(.logout), "logout")
            },
            ClientCase(
                "flow.platform-login", .flow, .must, title: "The MFA platform's in-app login",
                source: "docs/protocol.md §3.8, §10",
                backendDoes: "Answers the authorize URL with an access code and the login with an authorization code.",
                expects: "platform-login with MPIN_AUTHORIZE_URL: every call returns OK.",
                backend: CaseBackend(flavours: platform)
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.run(.platformLogin), "platform-login")
            },
            ClientCase(
                "flow.curve-bn254", .flow, .may, title: "The flows on the BN254 curve",
                source: "docs/protocol.md §6.1, docs/crypto.md (both curves)",
                backendDoes: "Runs its secrets on BN254 in place of BN254CX (MPIN_CURVE=BN254).",
                expects: "register-login: every call returns OK (a client on BN254CX alone is informational).",
                backend: CaseBackend(curve: .bn254)
            ) { context throws(ClientCaseError) in
                let run = try await context.run(.registerLogin)
                if run.allOK { return .pass("register-login on BN254: every call returned OK") }
                return .informational("the client does not run on BN254: \(run)")
            },
        ]
    }

    /// The phone's logout waits (at most 5 s) until the browser's login at the RPA has been
    /// answered: the open-source RPA (`milagro-oss`) releases the phone's held login before it logs
    /// the browser session in, so a logout sent at once could find no session to end.
    static var loggedInFirst: [Endpoint: ExchangeFault] {
        let browserLoggedIn = Flag()
        return [
            .rpaAuthenticate: ExchangeFault { _, _, next in
                let answer = await next()
                browserLoggedIn.set()
                return answer
            },
            .logout: ExchangeFault { _, _, next in
                for _ in 0..<100 where !browserLoggedIn.isSet { try? await Task.sleep(for: .milliseconds(50)) }
                return await next()
            },
        ]
    }

    static var activation: [ClientCase] {
        [
            ClientCase(
                "activation.auto", .activation, .must, title: "A registration active at once",
                source: "docs/backend.md \"Activation modes\"; docs/protocol.md §3.1",
                backendDoes: "Answers the registration active (\"active\": true).",
                expects: "register-login: every call returns OK.",
                backend: CaseBackend(activation: .auto)
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.registerLogin), "register-login with auto activation")
            },
            ClientCase(
                "activation.email", .activation, .must, title: "A registration activated by the mailed link",
                source: "docs/backend.md \"Activation modes\"; docs/protocol.md §3.1, §3.2",
                backendDoes:
                    "Answers the registration inactive and mails a link, which the user opens before the client asks for its shares.",
                expects: "register-login: every call returns OK.",
                backend: CaseBackend(activation: .email)
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.registerLogin), "register-login with email activation")
            },
            ClientCase(
                "activation.email-pending", .activation, .should, title: "A registration not activated yet",
                source: "docs/protocol.md §3.2, §4 (400 and 401 on the signature)",
                backendDoes: "Mails the link, which nobody opens: the signature answers 401.",
                expects: "register: confirmRegistration returns IDENTITY_NOT_VERIFIED.",
                backend: {
                    var backend = CaseBackend(activation: .email)
                    backend.opensActivationLinks = false
                    return backend
                }()
            ) { context throws(ClientCaseError) in
                Grade.status(try await context.run(.register), .identityNotVerified, source: "docs/protocol.md §4")
            },
            ClientCase(
                "activation.code", .activation, .must, title: "A registration with a mailed activation code",
                source: "docs/backend.md \"Activation modes\"; docs/protocol.md §3.1 (activateCode)",
                backendDoes: "Wants an activation code; the suite asks for one and passes it as MPIN_ACTIVATION_CODE.",
                expects: "register-login: every call returns OK.",
                backend: CaseBackend(activation: .code)
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.registerLogin), "register-login with code activation")
            },
            ClientCase(
                "activation.code-missing", .activation, .should, title: "A registration without its activation code",
                source: "docs/protocol.md §3.1, §4 (403 on the registration)",
                backendDoes: "Wants an activation code and gets none: 403.",
                expects: "register without MPIN_ACTIVATION_CODE: startRegistration returns IDENTITY_NOT_AUTHORIZED.",
                backend: CaseBackend(activation: .code)
            ) { context throws(ClientCaseError) in
                Grade.status(
                    try await context.run(.register, activationCode: .none), .identityNotAuthorized,
                    source: "docs/protocol.md §4")
            },
        ]
    }
}
