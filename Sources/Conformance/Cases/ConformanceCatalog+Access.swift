import MPinCrypto
import MPinSDK
import MilagroProtocol
import OrderedJSON
import SDKSeams

/// Access numbers and the held login (docs/protocol.md §5, §8.2, §13): check digits, the browser's poll,
/// the phone's login held until the browser logs in, single use, a wrong number, the timeout.
extension ConformanceCatalog {
    static let accessSource = "docs/protocol.md §5, §8.2, §13"

    static var access: [ConformanceCase] {
        [
            ConformanceCase(
                "access.number", .access, .must, title: "The browser gets an access number", source: accessSource,
                sends: "POST getAccessNumberURL {}", expects: "200 {accessNumber, webOTT, ttlSeconds}"
            ) { context async throws(ConformanceError) in
                guard try await context.settings().url(.getAccessNumberURL) != nil else {
                    return .unimplemented("no getAccessNumberURL")
                }
                let session = try await context.newAccessNumber()
                let ttl = session.answer["ttlSeconds"]?.intValue
                return ttl.map { $0 > 0 } == true
                    ? .pass("\(session.accessNumber), ttl \(ttl ?? 0) s") : .nonStrict("no positive ttlSeconds")
            },
            ConformanceCase(
                "access.check-digit", .access, .must, title: "Access numbers carry a valid check digit",
                source: "docs/protocol.md §5.1", sends: "three POST getAccessNumberURL",
                expects: "7 digits, the last the check digit of the first six"
            ) { context async throws(ConformanceError) in
                let settings = try await context.settings()
                guard settings[.accessNumberUseCheckSum]?.boolValue ?? true,
                    (settings[.accessNumberDigits]?.intValue ?? 7) == 7
                else {
                    return .pass("the settings ask for no check digit")
                }
                var bad: [String] = []
                for _ in 0..<3 {
                    let number = try await context.newAccessNumber().accessNumber
                    if !AccessNumber.isValid(number) { bad.append(number) }
                }
                return bad.isEmpty
                    ? .pass("three numbers, each with its check digit")
                    : .fail("no valid check digit: \(bad.joined(separator: ", "))")
            },
            ConformanceCase(
                "access.poll-new", .access, .must, title: "A new session polls as new", source: accessSource,
                sends: "getAccessNumber, then POST accessNumberURL {webOTT}",
                expects: "200 {status: \"new\"} (the older poll: 401 until the login is held)"
            ) {
                context async throws(ConformanceError) in
                let session = try await context.newAccessNumber()
                let answer = try await context.poll(session.webOTT)
                if answer.json?["status"]?.stringValue == "new" { return .pass("status new") }
                if answer.status == 401 && answer.json?["authOTT"] == nil {
                    return .pass(
                        "401 until the phone's login is held: the older poll (`/rps/accessnumber`, docs/protocol.md §8.2)"
                    )
                }
                return .fail("the poll answered \(answer.summary)")
            },
            ConformanceCase(
                "access.poll-unknown", .access, .should, title: "An unknown webOTT does not poll as a live session",
                source: accessSource, sends: "POST accessNumberURL with a made-up webOTT",
                expects: "a 4xx or status expired"
            ) {
                context async throws(ConformanceError) in
                let answer = try await context.poll(String(repeating: "ab", count: 16))
                if answer.isClientError { return .pass("refused: \(answer.status)") }
                if answer.isServerError { return .fail("answered \(answer.summary)") }
                let status = answer.json?["status"]?.stringValue ?? ""
                return status == "expired"
                    ? .pass("status expired") : .fail("a made-up webOTT polls as \(answer.summary)")
            },
            ConformanceCase(
                "access.held-login", .access, .must, title: "The held login: phone, browser poll, RPA",
                source: accessSource,
                sends:
                    "getAccessNumber; the phone's login with it; the browser's poll; the browser's login with the authOTT",
                expects: "the browser sees the authOTT, the RPA answers 200, the phone gets 200"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let held = try await context.heldLogin(user, session: try await context.newAccessNumber())
                guard held.browserAuthOTT != nil else {
                    return .fail(
                        "the browser's poll never saw an authOTT (\(held.pollStates.joined(separator: " → "))); phone: \(held.phone)"
                    )
                }
                guard held.rpa?.status == 200 else {
                    return .fail("the RPA answered \(held.rpa?.summary ?? "nothing")")
                }
                return held.phone.isOK
                    ? .pass("poll \(held.pollStates.joined(separator: " → ")); RPA 200; phone OK")
                    : .fail("the phone ended \(held.phone)")
            },
            ConformanceCase(
                "access.logout-data", .access, .should, title: "The held login gives the phone logout data",
                source: "docs/protocol.md §3.6, §3.9", sends: "a held login",
                expects: "the phone's answer has logoutData and logoutURL"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let held = try await context.heldLogin(user, session: try await context.newAccessNumber())
                guard held.phone.isOK else { return .fail("the held login failed: \(held.phone)") }
                return await user.client.canLogout(user.user)
                    ? .pass("logoutData and logoutURL came back")
                    : .nonStrict("no logout data: the phone cannot log the browser out")
            },
            ConformanceCase(
                "access.wrong-number", .access, .must, title: "A number never issued is 412",
                source: accessSource + ", §4 (412: INCORRECT_ACCESS_NUMBER)",
                sends: "the phone's login with a valid-looking access number that was not issued", expects: "412"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.loginAccessNumber(user, accessNumber: unissuedNumber(context))
                if outcome.isOK { return .fail("a number never issued logged in") }
                return outcome.error?.context.httpStatus == 412
                    ? .pass("412") : .nonStrict("refused as \(outcome), not 412")
            },
            ConformanceCase(
                "access.wrong-number-wrong-pin", .access, .should, title: "A wrong number is 412 even with a wrong PIN",
                source: "docs/protocol.md §9 (testAuthenticateAN2)", sends: "an unissued number and a wrong PIN",
                expects: "412"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.loginAccessNumber(
                    user, accessNumber: unissuedNumber(context), pin: user.wrongPIN)
                if outcome.isOK { return .fail("logged in") }
                return outcome.error?.context.httpStatus == 412
                    ? .pass("412") : .nonStrict("refused as \(outcome), not 412")
            },
            ConformanceCase(
                "access.wrong-pin", .access, .must, title: "The right number with a wrong PIN is 401, not held",
                source: accessSource, sends: "a held login with a wrong PIN",
                expects: "401 at once; the browser never sees an authOTT"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let held = try await context.heldLogin(
                    user, session: try await context.newAccessNumber(), pin: user.wrongPIN)
                if held.browserAuthOTT != nil { return .fail("the browser got an authOTT for a wrong PIN") }
                if held.phone.isOK { return .fail("a wrong PIN logged in") }
                return held.phone.error?.context.httpStatus == 401
                    ? .pass("401") : .nonStrict("refused as \(held.phone)")
            },
            ConformanceCase(
                "access.single-use", .access, .must, title: "An access number logs in once", source: accessSource,
                sends: "a held login, then the phone's login with the same number", expects: "the second refused (412)"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let session = try await context.newAccessNumber()
                let held = try await context.heldLogin(user, session: session)
                guard held.phone.isOK else { return .fail("the first login failed: \(held.phone)") }
                let again = try await context.heldLogin(user, session: session, polls: 4)
                if again.phone.isOK || again.rpa?.status == 200 {
                    return .fail("the same access number logged in twice")
                }
                return again.phone.error?.context.httpStatus == 412
                    ? .pass("the second login: 412") : .nonStrict("the second login refused as \(again.phone)")
            },
            ConformanceCase(
                "access.poll-after-login", .access, .should, title: "After the login the session polls as expired",
                source: "docs/protocol.md §13 (/loginResult deletes the session)", sends: "a held login, then a poll",
                expects: "status expired or a 4xx"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let session = try await context.newAccessNumber()
                let held = try await context.heldLogin(user, session: session)
                guard held.phone.isOK else { return .fail("the login failed: \(held.phone)") }
                let answer = try await context.poll(session.webOTT)
                if answer.isClientError || answer.json?["status"]?.stringValue == "expired" {
                    return .pass("expired (\(answer.status))")
                }
                return .nonStrict("the used session still polls as \(answer.summary)")
            },
            ConformanceCase(
                "access.rpa-unknown-auth-ott", .access, .must, title: "The RPA refuses an authOTT it never issued",
                source: accessSource,
                sends: "POST authenticateURL {mpinResponse: {authOTT: made up}}", expects: "a 4xx (408 upstream)"
            ) { context async throws(ConformanceError) in
                let response = try await context.send(
                    .post, try await context.settingURL(.authenticateURL),
                    json: object(("mpinResponse", object(("authOTT", .string(String(repeating: "cd", count: 16)))))),
                    as: .browser)
                return Expect.refusal(response, "a made-up authOTT")
            },
            ConformanceCase(
                "access.timeout", .access, .should, title: "A held login with no browser times out with 408",
                source: accessSource + " (MOBILE_LOGIN_AUTHENTICATION_TIMEOUT_SECONDS, 10)",
                sends: "the phone's login with an access number; no browser",
                expects: "408 (REQUEST_EXPIRED) within 20 s", slow: true
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let session = try await context.newAccessNumber()
                let started = context.clock.now()
                let outcome = try await context.loginAccessNumber(user, accessNumber: session.accessNumber)
                let waited = context.clock.now() - started
                if outcome.isOK { return .fail("logged in with no browser") }
                return outcome.error?.context.httpStatus == 408
                    ? .pass("408 after \(Int(waited)) s") : .nonStrict("ended \(outcome) after \(Int(waited)) s")
            },
        ]
    }

    /// A 7-digit number with a valid check digit that no live session of the case has.
    static func unissuedNumber(_ context: ConformanceContext) -> String {
        let digits = context.random.randomBytes(count: 6).map { String($0 % 10) }.joined()
        return AccessNumber.complete(digits) ?? "1234560"
    }
}
