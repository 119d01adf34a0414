import MPinSDK
import OrderedJSON
import SDKSeams

/// PIN verdicts and blocking (docs/protocol.md §3.6, §4, §8.2): a wrong PIN is 401, the third wrong one
/// 410 and the user blocked, and the block holds on every other way in (access number, QR code,
/// OTP). Blocking is proven with the fewest tries (at most five wrong PINs): never brute force.
extension ConformanceCatalog {
    static let pinSource = "docs/protocol.md §4, §8.2 (3-attempt block)"

    /// A registered user, a copy of its device made before the block, and the tries the block took.
    static func blockedUser(_ context: ConformanceContext) async throws(ConformanceError) -> (ProbeUser, Int) {
        let user = try await context.registeredUser()
        let copy = try await context.copy(user)
        let (tries, outcomes) = try await context.blockUser(user)
        guard let tries else {
            throw .setup("five wrong PINs did not block the user: \(outcomes.joined(separator: ", "))")
        }
        return (copy, tries)
    }

    /// Whether an outcome is a refusal of a blocked user (410, or a 401).
    static func refusedBlocked(_ outcome: ProbeOutcome, _ path: String) -> Verdict {
        if outcome.isOK { return .fail("the blocked user logged in \(path) with the right PIN") }
        if outcome.error?.context.httpStatus == 410 { return .pass("\(path): 410, still blocked") }
        if outcome.error?.context.httpStatus.map({ $0 >= 500 }) == true { return .fail("\(path): \(outcome)") }
        return .pass("\(path): refused, \(outcome)")
    }

    static var pin: [ConformanceCase] {
        [
            ConformanceCase(
                "pin.wrong-refused", .pin, .must, title: "A wrong PIN is refused with 401",
                source: pinSource + ", §3.6",
                sends: "a login with a wrong PIN", expects: "the RPA answers 401 (INCORRECT_PIN)"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.login(user, pin: user.wrongPIN)
                if outcome.isOK { return .fail("a wrong PIN logged in") }
                return outcome.error?.context.httpStatus == 401
                    ? .pass("401 INCORRECT_PIN") : .nonStrict("refused, but as \(outcome)")
            },
            ConformanceCase(
                "pin.pass2-defers", .pin, .may, title: "Whether pass 2 answers 200 to a wrong PIN",
                source: "docs/protocol.md §3.6",
                sends: "a login with a wrong PIN", expects: "reported only (the verdict may wait for the authOTT)"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.login(user, pin: user.wrongPIN)
                guard let answer = user.wire.last("/pass2")?.response else {
                    return .informational("no pass 2 was sent")
                }
                return .informational("pass 2 answered \(answer.status) to a wrong PIN")
            },
            ConformanceCase(
                "pin.wrong-then-right", .pin, .must, title: "A right PIN after one wrong one logs in",
                source: pinSource,
                sends: "a wrong PIN, then the right one", expects: "401, then OK"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.login(user, pin: user.wrongPIN)
                let outcome = try await context.login(user)
                return outcome.isOK
                    ? .pass("the right PIN logged in after a wrong one")
                    : .fail("the right PIN was refused: \(outcome)")
            },
            ConformanceCase(
                "pin.blocks", .pin, .must, title: "Wrong PINs block the user", source: pinSource,
                sends: "wrong PINs, at most five", expects: "410 within five tries (the upstream server: at the third)",
                requestLimit: 60
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let (tries, outcomes) = try await context.blockUser(user)
                guard let tries else {
                    return .fail("not blocked after five wrong PINs: \(outcomes.joined(separator: ", "))")
                }
                return tries == 3
                    ? .pass("blocked at the third wrong PIN (410)")
                    : .nonStrict("blocked at wrong PIN \(tries), not the third")
            },
            ConformanceCase(
                "pin.blocked-right-pin", .pin, .must, title: "A blocked user's right PIN is refused", source: pinSource,
                sends: "the right PIN from a copy of the device, after the block", expects: "refused (410)",
                requestLimit: 60
            ) { context async throws(ConformanceError) in
                let (copy, _) = try await blockedUser(context)
                return refusedBlocked(try await context.login(copy), "directly")
            },
            ConformanceCase(
                "pin.block-not-bypassed-access-number", .pin, .must,
                title: "The block holds for an access-number login",
                source: pinSource + "; issue 28",
                sends: "after the block: the right PIN with a browser's access number",
                expects: "the phone refused, the browser never gets an authOTT", requestLimit: 80
            ) { context async throws(ConformanceError) in
                let (copy, _) = try await blockedUser(context)
                let held = try await context.heldLogin(copy, session: try await context.newAccessNumber())
                if held.browserAuthOTT != nil && held.rpa?.status == 200 {
                    return .fail("the browser logged in for the blocked user")
                }
                return refusedBlocked(held.phone, "with an access number")
            },
            ConformanceCase(
                "pin.block-not-bypassed-otp", .pin, .must, title: "The block holds for an OTP login",
                source: pinSource + "; issue 28",
                sends: "after the block: the right PIN asking for an OTP", expects: "refused, no OTP usable",
                requestLimit: 60
            ) {
                context async throws(ConformanceError) in
                let (copy, _) = try await blockedUser(context)
                let (outcome, _) = try await context.loginOTP(copy)
                return refusedBlocked(outcome, "asking for an OTP")
            },
            ConformanceCase(
                "pin.block-not-bypassed-qr", .pin, .must, title: "The block holds for a QR-code login",
                source: pinSource + "; issue 28",
                sends: "after the block: the right PIN with a QR code's access code (POST /rps/getQrUrl)",
                expects: "refused; unimplemented without getQrUrl", requestLimit: 80
            ) { context async throws(ConformanceError) in
                let qr = try await context.send(
                    .post, "/\(context.rpsPrefix)/getQrUrl", json: .object([]), as: .browser)
                guard qr.status == 200, let url = qr.json?["qrUrl"]?.stringValue, let hash = url.lastIndex(of: "#"),
                    let webOTT = qr.json?["webOTT"]?.stringValue
                else {
                    return .unimplemented("POST /\(context.rpsPrefix)/getQrUrl answered \(qr.status)")
                }
                let session = BrowserSession(
                    accessNumber: String(url[url.index(after: hash)...]), webOTT: webOTT, answer: qr.json ?? .null)
                let (copy, _) = try await blockedUser(context)
                let held = try await context.heldLogin(copy, session: session)
                if held.browserAuthOTT != nil && held.rpa?.status == 200 {
                    return .fail("the browser logged in for the blocked user")
                }
                return refusedBlocked(held.phone, "with a QR code")
            },
            ConformanceCase(
                "pin.attempts-across-paths", .pin, .should, title: "Wrong PINs count across login paths",
                source: pinSource,
                sends: "two wrong PINs directly, then a wrong PIN with an access number",
                expects: "the third is 410", requestLimit: 60
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.login(user, pin: user.wrongPIN)
                _ = try await context.login(user, pin: user.wrongPIN)
                let held = try await context.heldLogin(
                    user, session: try await context.newAccessNumber(), pin: user.wrongPIN)
                if held.phone.isOK { return .fail("a wrong PIN logged in with an access number") }
                return held.phone.error?.context.httpStatus == 410
                    ? .pass("the third wrong PIN, on another path, blocked")
                    : .fail("the third wrong PIN (with an access number) answered \(held.phone), not 410")
            },
        ]
    }
}
