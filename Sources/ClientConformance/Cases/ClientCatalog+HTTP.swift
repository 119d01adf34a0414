import Conformance
import MilagroProtocol
import ReferenceBackend

/// HTTP faults on each request: the statuses of the protocol's status mapping (docs/protocol.md
/// §4), the held login's 408, redirects to another origin, dropped and cut connections, a wrong
/// `Content-Type`, bodies that are not JSON, an oversized body and a slow answer.
extension ClientCatalog {
    /// A request of a flow a fault can hit: its endpoints (and D-TA operation), the flow that
    /// sends it, whether a registration must come first, and its flavours.
    struct Target: Sendable {
        var name: String
        var what: String
        var endpoints: [Endpoint]
        var operation: String? = nil
        var flow: ClientFlow
        var registersFirst: Bool
        var flavours: Set<BackendFlavour>? = nil
    }

    static let settingsRequest = Target(
        name: "settings", what: "the client settings", endpoints: [.clientSettings], flow: .register,
        registersFirst: false)
    static let registerRequest = Target(
        name: "register", what: "the registration (PUT registerURL)", endpoints: [.register], flow: .register,
        registersFirst: false)
    static let signatureRequest = Target(
        name: "signature", what: "client-secret share 1 (GET signatureURL)", endpoints: [.signature],
        flow: .register, registersFirst: false)
    static let dtaSecretRequest = Target(
        name: "dta-secret", what: "client-secret share 2 (D-TA 2's clientSecret)", endpoints: Fault.dta2,
        operation: Endpoint.clientSecretOperation, flow: .register, registersFirst: false)
    static let permitRequest = Target(
        name: "permit", what: "time-permit share 1 (GET timePermitsURL)", endpoints: [.timePermit], flow: .login,
        registersFirst: true, flavours: milagro)
    static let dtaPermitRequest = Target(
        name: "dta-permit", what: "time-permit share 2 (D-TA 2's timePermit)", endpoints: Fault.dta2,
        operation: Endpoint.timePermitOperation, flow: .login, registersFirst: true, flavours: milagro)
    static let pass1Request = Target(
        name: "pass1", what: "pass 1", endpoints: [.pass1], flow: .login, registersFirst: true)
    static let pass2Request = Target(
        name: "pass2", what: "pass 2", endpoints: [.pass2], flow: .login, registersFirst: true)
    static let loginRequest = Target(
        name: "login", what: "the login (authenticateURL)", endpoints: Fault.login, flow: .login,
        registersFirst: true)

    /// A case whose backend answers `target`'s request with `status`, expecting `expected` (the
    /// mapping of docs/protocol.md §4).
    static func statusCase(
        _ target: Target, _ status: Int, _ expected: StatusCode, why: String, level: RequirementLevel = .must
    ) -> ClientCase {
        ClientCase(
            "http-fault.\(target.name)-\(status)", .httpFault, level,
            title: "\(status) on \(target.what) is \(expected.name)", source: "docs/protocol.md §4 (\(why))",
            backendDoes: "Answers \(target.what) with \(status) and a JSON {\"message\"}.",
            expects: "\(target.flow): the call that sent it returns \(expected.name).",
            backend: .fault(on: target.endpoints, flavours: target.flavours) { _ in
                Fault.status(status, only: target.operation)
            }
        ) { context throws(ClientCaseError) in
            if target.registersFirst { _ = try await context.registered() }
            return Grade.status(try await context.run(target.flow), expected, source: "docs/protocol.md §4")
        }
    }

    /// A case whose backend redirects `target`'s request to the trap origin: the client must not
    /// follow it (nothing reaches the trap) and report NETWORK_ERROR (a 3xx, docs/protocol.md §4).
    static func redirectCase(_ target: Target, _ status: Int, carries: String) -> ClientCase {
        ClientCase(
            "http-fault.redirect-\(target.name)", .httpFault, .must,
            title: "A \(status) redirect of \(target.what) to another origin is not followed",
            source: "docs/protocol.md §1, §4 (no redirect is followed; 3xx is NETWORK_ERROR); RFC 9110 §15.4",
            backendDoes:
                "Answers \(target.what) with \(status) and a Location on another origin (a port of its own on 127.0.0.1).",
            expects:
                "No request reaches the other origin (it would carry \(carries)); the call returns NETWORK_ERROR.",
            backend: .fault(on: target.endpoints, flavours: target.flavours) { origins in
                Fault.redirect(status, to: origins.trap, only: target.operation)
            }
        ) { context throws(ClientCaseError) in
            if target.registersFirst { _ = try await context.registered() }
            let run = try await context.run(target.flow)
            let followed = context.log.clientExchanges.filter { $0.request.url.hasPrefix(context.origins.trap) }
            if let first = followed.first {
                return .fail(
                    "the client followed the \(status) to the other origin: \(first.request.method) \(first.request.url)"
                        + (first.request.body.isEmpty ? "" : " with a body of \(first.request.body.count) bytes")
                        + " (\(carries))")
            }
            return Grade.status(run, .networkError, source: "docs/protocol.md §4", otherwise: .nonStrict)
        }
    }

    /// A case whose backend drops or cuts the answer to `target`'s request.
    static func connectionCase(_ target: Target, truncated: Bool) -> ClientCase {
        let what = truncated ? "truncated" : "reset"
        return ClientCase(
            "http-fault.\(what)-\(target.name)", .httpFault, .must,
            title: truncated
                ? "An answer to \(target.what) cut short of its Content-Length" : "No answer to \(target.what)",
            source: "docs/protocol.md §1 (a transport failure is NETWORK_ERROR); RFC 9112 §6.3",
            backendDoes: truncated
                ? "Declares the answer's whole length, sends half of it and closes the connection."
                : "Closes the connection once the request is read, with no answer.",
            expects: "The call returns NETWORK_ERROR; the driver ends the flow and exits 0 (no crash, no hang).",
            backend: .fault(on: target.endpoints, flavours: target.flavours) { _ in
                truncated ? Fault.truncate(only: target.operation) : Fault.drop(only: target.operation)
            }
        ) { context throws(ClientCaseError) in
            if target.registersFirst { _ = try await context.registered() }
            return Grade.status(
                try await context.run(target.flow), .networkError, source: "docs/protocol.md §1", otherwise: .nonStrict)
        }
    }

    static var httpFaults: [ClientCase] {
        let generic = "generic: ≥ 500 HTTP_SERVER_ERROR"
        let generic4xx = "generic: other 4xx HTTP_REQUEST_ERROR"
        var cases: [ClientCase] = [
            statusCase(settingsRequest, 500, .httpServerError, why: generic),
            statusCase(settingsRequest, 404, .httpRequestError, why: generic4xx),
            statusCase(settingsRequest, 406, .badUserAgent, why: "406 BAD_USER_AGENT"),
            statusCase(registerRequest, 403, .identityNotAuthorized, why: "register 403"),
            statusCase(registerRequest, 400, .httpRequestError, why: generic4xx),
            statusCase(registerRequest, 500, .httpServerError, why: generic),
            statusCase(signatureRequest, 401, .identityNotVerified, why: "client secret share 1: 400, 401"),
            statusCase(signatureRequest, 400, .identityNotVerified, why: "client secret share 1: 400, 401"),
            statusCase(signatureRequest, 503, .httpServerError, why: generic),
            statusCase(dtaSecretRequest, 408, .requestExpired, why: "client secret share 2: 408"),
            statusCase(dtaSecretRequest, 500, .httpServerError, why: generic),
            statusCase(permitRequest, 410, .revoked, why: "time permit share 1 or 2: 410"),
            statusCase(permitRequest, 500, .httpServerError, why: generic),
            statusCase(dtaPermitRequest, 410, .revoked, why: "time permit share 1 or 2: 410"),
            statusCase(pass1Request, 500, .httpServerError, why: "pass 1: generic only"),
            statusCase(pass1Request, 400, .httpRequestError, why: "pass 1: generic only"),
            statusCase(pass1Request, 403, .httpRequestError, why: "pass 1: generic only"),
            statusCase(pass2Request, 500, .httpServerError, why: "pass 2: generic only"),
            statusCase(pass2Request, 408, .httpRequestError, why: "pass 2: generic only"),
            statusCase(loginRequest, 401, .incorrectPIN, why: "login 401"),
            statusCase(loginRequest, 408, .requestExpired, why: "login 408"),
            statusCase(loginRequest, 403, .identityNotAuthorized, why: "login 403"),
            statusCase(loginRequest, 409, .clientSecretExpired, why: "login 409"),
            statusCase(loginRequest, 500, .httpServerError, why: generic),
        ]
        cases += [
            ClientCase(
                "http-fault.login-410", .httpFault, .must, title: "410 on the login blocks the user",
                source:
                    "docs/protocol.md §3.6, §4 (410 is INCORRECT_PIN; the user becomes BLOCKED and loses its token)",
                backendDoes: "Answers the login with 410, then answers the next login as it should.",
                expects: "login returns INCORRECT_PIN; the next login does not return OK (the token is gone).",
                backend: .fault(on: Fault.login) { _ in Fault.first(1, Fault.status(410, message: "User blocked")) }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                let blocked = try await context.run(.login)
                guard blocked.outcome == .incorrectPIN else {
                    return Grade.status(blocked, .incorrectPIN, source: "docs/protocol.md §4")
                }
                let after = try await context.run(.login)
                guard let failure = after.firstFailure else {
                    return .fail("after the 410 the client logged in again: it kept the token of a blocked user")
                }
                return .pass(
                    "login returned INCORRECT_PIN, and the next login's \(failure.name) \(failure.status.name)")
            },
            ClientCase(
                "http-fault.access-number-412", .httpFault, .must,
                title: "412 on the phone's login is INCORRECT_ACCESS_NUMBER",
                source: "docs/protocol.md §4 (login 412)",
                backendDoes: "Answers the phone's access-number login (mobileAuthenticateURL) with 412.",
                expects: "access-number: finishAuthenticationAN returns INCORRECT_ACCESS_NUMBER.",
                backend: .fault(on: [.mobileAuthenticate], flavours: milagro) { _ in Fault.status(412) }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.status(
                    try await context.runWithBrowser(.accessNumber, browser: false), .incorrectAccessNumber,
                    source: "docs/protocol.md §4")
            },
            ClientCase(
                "http-fault.held-login-408", .httpFault, .must, title: "The held login's timeout is REQUEST_EXPIRED",
                source: "docs/protocol.md §4 (login 408); docs/backend.md \"The held login\"",
                backendDoes: "Holds the phone's access-number login for a browser that never comes; 408 after 1 s.",
                expects: "access-number: finishAuthenticationAN returns REQUEST_EXPIRED.",
                backend: CaseBackend(loginTimeout: 1, flavours: milagro)
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.status(
                    try await context.runWithBrowser(.accessNumber, browser: false), .requestExpired,
                    source: "docs/protocol.md §4")
            },
            ClientCase(
                "http-fault.login-401-challenge", .httpFault, .should,
                title: "A 401 with WWW-Authenticate is still INCORRECT_PIN",
                source:
                    "docs/protocol.md §4 (the open-source server sends WWW-Authenticate: Authenticate with every 401)",
                backendDoes:
                    "Answers the login 401 with WWW-Authenticate: Authenticate, as the open-source server does.",
                expects: "login returns INCORRECT_PIN (the 401 is not taken for a challenge to answer).",
                backend: .fault(on: Fault.login) { _ in
                    ExchangeFault { _, _, _ in
                        var headers = Fault.json
                        headers.append(name: "WWW-Authenticate", value: "Authenticate")
                        return FaultAnswer(status: 401, headers: headers, body: Fault.message("Wrong PIN."))
                    }
                }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.status(try await context.run(.login), .incorrectPIN, source: "docs/protocol.md §4")
            },
        ]
        cases += [
            redirectCase(settingsRequest, 302, carries: "the client's custom headers and its client id"),
            redirectCase(signatureRequest, 303, carries: "the M-Pin ID and the regOTT"),
            redirectCase(pass2Request, 307, carries: "V, the M-Pin ID and the pass-2 body"),
            redirectCase(loginRequest, 308, carries: "the authOTT"),
        ]
        for target in [settingsRequest, pass1Request, dtaSecretRequest] {
            cases.append(connectionCase(target, truncated: false))
            cases.append(connectionCase(target, truncated: true))
        }
        cases += [
            ClientCase(
                "http-fault.content-type-settings", .httpFault, .should,
                title: "JSON settings labelled text/html are still read",
                source: "docs/protocol.md §1 (a 200 body is parsed as JSON whatever its content type)",
                backendDoes: "Answers the client settings with their JSON and Content-Type: text/html.",
                expects: "register-login: every call returns OK.",
                backend: .fault(on: [.clientSettings]) { _ in Fault.contentType("text/html; charset=utf-8") }
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.registerLogin), "register-login with settings as text/html")
            },
            ClientCase(
                "http-fault.content-type-pass1", .httpFault, .should, title: "A pass-1 answer without a Content-Type",
                source: "docs/protocol.md §1 (a 200 body is parsed as JSON whatever its content type)",
                backendDoes: "Answers pass 1 with its JSON and no Content-Type field.",
                expects: "login: every call returns OK.",
                backend: .fault(on: [.pass1]) { _ in
                    ExchangeFault { _, _, next in
                        var answer = await next()
                        answer.headers.remove(name: "Content-Type")
                        return answer
                    }
                }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.run(.login), "login with pass 1 unlabelled")
            },
            ClientCase(
                "http-fault.not-json-settings", .httpFault, .must, title: "Settings that are not JSON",
                source: "docs/protocol.md §1 (a 200 body that does not parse is RESPONSE_PARSE_ERROR)",
                backendDoes: "Answers the client settings 200 with an HTML page.",
                expects: "register: setBackend returns RESPONSE_PARSE_ERROR.",
                backend: .fault(on: [.clientSettings]) { _ in
                    Fault.body(Array("<html><body>It works!</body></html>".utf8), contentType: "text/html")
                }
            ) { context throws(ClientCaseError) in
                Grade.status(try await context.run(.register), .responseParseError, source: "docs/protocol.md §1")
            },
            ClientCase(
                "http-fault.empty-pass1", .httpFault, .must, title: "An empty pass-1 answer",
                source: "docs/protocol.md §1 (a 200 body that does not parse is RESPONSE_PARSE_ERROR)",
                backendDoes: "Answers pass 1 200 with an empty body.",
                expects: "login: finishAuthentication returns RESPONSE_PARSE_ERROR.",
                backend: .fault(on: [.pass1]) { _ in Fault.body([]) }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.status(try await context.run(.login), .responseParseError, source: "docs/protocol.md §1")
            },
            ClientCase(
                "http-fault.oversized-settings", .httpFault, .should,
                title: "The client bounds what it reads of an answer",
                source: "docs/security.md (bounded memory); RFC 9110 §8.6",
                backendDoes:
                    "Answers the second request for the client settings declaring 64 MiB, sends 17 MiB and closes.",
                expects:
                    "register works; the login's setBackend does not return OK, and a process driver's peak memory stays within 32 MiB of the register run's.",
                backend: .fault(on: [.clientSettings]) { _ in
                    let big = Fault.oversized(declared: 64 << 20, sent: 17 << 20)
                    let counter = Counter()
                    return ExchangeFault { request, services, next in
                        counter.next() == 2 ? await big.handle(request, services, next) : await next()
                    }
                }
            ) { context throws(ClientCaseError) in
                let first = try await context.registered()
                let run = try await context.run(.login)
                guard let failure = run.firstFailure else {
                    return .fail("every call returned OK: the client took a 64 MiB answer for its settings")
                }
                if let before = first.peakMemoryBytes, let after = run.peakMemoryBytes, after > before + (32 << 20) {
                    return .nonStrict(
                        "\(failure.name) returned \(failure.status.name), but the driver's peak memory grew from "
                            + "\(before >> 20) MiB to \(after >> 20) MiB: it read the oversized answer in")
                }
                let memory = run.peakMemoryBytes.map { ", peak memory \($0 >> 20) MiB" } ?? ""
                return .pass("\(failure.name) returned \(failure.status.name)\(memory)")
            },
            ClientCase(
                "http-fault.slow-pass1", .httpFault, .should, title: "A pass-1 answer 3 s late",
                source: "docs/protocol.md §1 (the core sets no time limit of its own)",
                backendDoes: "Answers pass 1 as it should, 3 s late.",
                expects: "login: every call returns OK (the client waits a few seconds for an answer).",
                backend: .fault(on: [.pass1]) { _ in Fault.slow(3) }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.run(.login), "login with a slow pass 1")
            },
        ]
        return cases
    }
}
