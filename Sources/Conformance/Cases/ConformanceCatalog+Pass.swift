import FlowRecording
import MPinCrypto
import MPinSDK
import MilagroProtocol
import OrderedJSON
import SDKSeams

/// Pass 1 and pass 2 (docs/protocol.md §3.6, §6, §8.2): the points must be on the curve and of the right
/// length, y fresh, pass 2 single use and bound to its pass 1, the identity bound to U.
extension ConformanceCatalog {
    static let passSource = "docs/protocol.md §3.6, §8.2"

    /// A request body with one member replaced (or removed when `value` is nil).
    static func rewriting(_ request: HTTPRequest, _ name: String, _ value: (JSONValue?) -> JSONValue?) -> HTTPRequest {
        guard let json = try? JSONParser.parse(request.body), case .object(var members) = json else { return request }
        let old = members.first { $0.name == name }?.value
        members.removeAll { $0.name == name }
        if let new = value(old) { members.append(.init(name, new)) }
        var request = request
        request.body = Array(JSONWriter.compact(.object(members)).utf8)
        return request
    }

    /// A point's hex with the last byte of Y changed: off the curve (for all but a negligible share of points).
    static func offCurve(_ value: JSONValue?) -> JSONValue? {
        guard let hex = value?.stringValue, hex.count >= 4 else {
            return .string("04" + String(repeating: "11", count: 64))
        }
        let last = hex.suffix(2) == "00" ? "01" : "00"
        return .string(String(hex.dropLast(2)) + last)
    }

    /// A login of a new user whose request to `endpoint` has `field` rewritten; graded: refused
    /// at that request (4xx) passes, refused later is non-strict, a 5xx or a login fails.
    static func tamperedLogin(
        _ id: String, _ level: RequirementLevel, title: String, endpoint: String, field: String,
        sends: String, needsPermits: Bool = false,
        _ change: @escaping @Sendable (JSONValue?) -> JSONValue?
    ) -> ConformanceCase {
        ConformanceCase(
            id, .pass, level, title: title, source: passSource + ", §6.1 (G1 points: 65 bytes, 04‖X‖Y, on the curve)",
            sends: sends, expects: "a 4xx at \(endpoint); the login refused in any case"
        ) { context async throws(ConformanceError) in
            if needsPermits, try await !context.settings().usesPermits {
                return .unimplemented("usePermits is false: no UT is sent")
            }
            let user = try await context.registeredUser()
            user.wire.rewrite(pathSuffix: "/" + endpoint) { rewriting($0, field, change) }
            let outcome = try await context.login(user)
            guard let answer = user.wire.last("/" + endpoint)?.response else {
                return .fail("no answer to \(endpoint): \(outcome)")
            }
            if outcome.isOK { return .fail("the login succeeded with \(sends); \(endpoint) answered \(answer.status)") }
            if answer.isServerError { return .fail("\(endpoint) answered \(answer.summary)") }
            if let broken = user.wire.exchanges.last(where: { $0.response?.isServerError == true }),
                let response = broken.response
            {
                return .fail(
                    "\(endpoint) answered \(answer.status), then \(InterceptingTransport.path(of: broken.request.url)) answered \(response.summary)"
                )
            }
            if answer.isClientError { return .pass("\(endpoint) refused it: \(answer.status)") }
            return .nonStrict("\(endpoint) accepted it (\(answer.status)); the login was refused later: \(outcome)")
        }
    }

    static var pass: [ConformanceCase] {
        [
            ConformanceCase(
                "pass.login", .pass, .must, title: "A registered user logs in with the right PIN", source: passSource,
                sends: "time permit, pass 1, pass 2 and the RPA's login through the SDK", expects: "OK"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.login(user)
                return outcome.isOK ? .pass("logged in") : .fail("the login ended \(outcome)")
            },
            ConformanceCase(
                "pass1.answer", .pass, .must, title: "Pass 1 answers a 32-byte challenge y", source: passSource,
                sends: "a login through the SDK", expects: "pass 1: 200 {y: 32 bytes hex}"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.login(user)
                guard let answer = user.wire.last("/pass1")?.response else { return .fail("no pass 1 was sent") }
                return Expect.isHex(answer.json?["y"], bytes: 32)
                    ? .pass("y is 32 bytes") : .fail("pass 1 answered \(answer.summary)")
            },
            ConformanceCase(
                "pass1.fresh-y", .pass, .must, title: "Each pass 1 gets a new y",
                source: passSource + " (y = a fresh random scalar)",
                sends: "two logins of one user", expects: "two different y"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.login(user)
                let first = user.wire.last("/pass1")?.response?.json?["y"]?.stringValue
                _ = try await context.login(user)
                let second = user.wire.last("/pass1")?.response?.json?["y"]?.stringValue
                guard let first, let second else { return .fail("pass 1 gave no y") }
                return first != second ? .pass("two different challenges") : .fail("the same y twice: \(first)")
            },
            tamperedLogin(
                "pass1.u-off-curve", .must, title: "An off-curve U is refused", endpoint: "pass1", field: "U",
                sends: "pass 1 with U's last byte changed (off the curve)", offCurve),
            tamperedLogin(
                "pass1.ut-off-curve", .must, title: "An off-curve UT is refused", endpoint: "pass1", field: "UT",
                sends: "pass 1 with UT's last byte changed (off the curve)", needsPermits: true, offCurve),
            tamperedLogin(
                "pass1.u-short", .must, title: "A 64-byte U is refused", endpoint: "pass1", field: "U",
                sends: "pass 1 with U cut to 64 bytes"
            ) { .string(String(($0?.stringValue ?? "").prefix(128))) },
            tamperedLogin(
                "pass1.u-compressed", .should, title: "A compressed U is refused", endpoint: "pass1", field: "U",
                sends: "pass 1 with U as 02‖X (33 bytes)"
            ) { value in
                .string("02" + String((value?.stringValue ?? "").dropFirst(2).prefix(64)))
            },
            tamperedLogin(
                "pass1.u-zero", .must, title: "A U of zeros (no point) is refused", endpoint: "pass1", field: "U",
                sends: "pass 1 with U = 04 and 64 zero bytes"
            ) { _ in .string("04" + String(repeating: "00", count: 64)) },
            tamperedLogin(
                "pass1.u-not-hex", .must, title: "A U that is not hex is refused", endpoint: "pass1", field: "U",
                sends: "pass 1 with U of 130 'z'"
            ) { _ in .string(String(repeating: "z", count: 130)) },
            tamperedLogin(
                "pass1.u-missing", .must, title: "A pass 1 without U is refused", endpoint: "pass1", field: "U",
                sends: "pass 1 without U"
            ) { _ in nil },
            tamperedLogin(
                "pass1.mpin-id-not-hex", .must, title: "A pass 1 whose mpin_id is not hex is refused",
                endpoint: "pass1",
                field: "mpin_id", sends: "pass 1 with mpin_id \"zz\""
            ) { _ in .string("zz") },
            tamperedLogin(
                "pass2.v-off-curve", .must, title: "An off-curve V is refused", endpoint: "pass2", field: "V",
                sends: "pass 2 with V's last byte changed (off the curve)", offCurve),
            tamperedLogin(
                "pass2.v-short", .must, title: "A 64-byte V is refused", endpoint: "pass2", field: "V",
                sends: "pass 2 with V cut to 64 bytes"
            ) { .string(String(($0?.stringValue ?? "").prefix(128))) },
            tamperedLogin(
                "pass2.v-missing", .must, title: "A pass 2 without V is refused", endpoint: "pass2", field: "V",
                sends: "pass 2 without V"
            ) { _ in nil },
            ConformanceCase(
                "pass1.unknown-mpin-id", .pass, .should, title: "Pass 1 for an M-Pin ID never issued is refused",
                source: passSource, sends: "pass 1 with the hex of a made-up M-Pin ID and a valid U",
                expects: "a 4xx (a 200 is non-strict: the pairing refuses later)"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let made = Hex.encode(Array("{\"userID\": \"\(context.newUserID())\", \"mobile\": 1}".utf8))
                user.wire.rewrite(pathSuffix: "/pass1") { rewriting($0, "mpin_id") { _ in .string(made) } }
                user.wire.rewrite(pathSuffix: "/pass2") { rewriting($0, "mpin_id") { _ in .string(made) } }
                let outcome = try await context.login(user)
                guard let answer = user.wire.last("/pass1")?.response else { return .fail("no pass 1 answer") }
                if outcome.isOK { return .fail("an ID never issued logged in") }
                if answer.isServerError { return .fail("pass 1 answered \(answer.summary)") }
                return answer.isClientError
                    ? .pass("pass 1 refused it: \(answer.status)")
                    : .nonStrict("pass 1 answered 200; the login failed later (\(outcome))")
            },
            ConformanceCase(
                "pass.identity-bound", .pass, .must, title: "A login cannot claim another user's M-Pin ID",
                source: passSource + ", §6.4 (U is bound to H(ID))",
                sends: "user A's pass 1 and pass 2 with user B's mpin_id", expects: "the login refused"
            ) { context async throws(ConformanceError) in
                let a = try await context.registeredUser()
                let b = try await context.registeredUser()
                let other = b.mpinID
                a.wire.rewrite(pathSuffix: "/pass1") { rewriting($0, "mpin_id") { _ in .string(other) } }
                a.wire.rewrite(pathSuffix: "/pass2") { rewriting($0, "mpin_id") { _ in .string(other) } }
                let outcome = try await context.login(a)
                if outcome.isOK { return .fail("A's secret logged in as B") }
                let statuses = a.wire.exchanges.compactMap(\.response).filter(\.isServerError)
                return statuses.isEmpty
                    ? .pass("refused: \(outcome)") : .fail("a 5xx on the way: \(statuses[0].summary)")
            },
            ConformanceCase(
                "pass2.single-use", .pass, .must, title: "A replayed pass 2 gets no second login",
                source: passSource
                    + "; issue 28 (the open-source server answers a replayed pass 2 with a second authOTT, and both logins succeed)",
                sends: "a login, then its pass 2 again, then the RPA's login with any authOTT that came back",
                expects: "the replay refused (4xx), or its authOTT refused"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.login(user)
                guard outcome.isOK, let pass2 = user.wire.last("/pass2")?.request else {
                    return .fail("the first login failed: \(outcome)")
                }
                let replay = try await context.resend(pass2)
                if replay.isServerError { return .fail("the replay answered \(replay.summary)") }
                if replay.isClientError { return .pass("the replay was refused: \(replay.status)") }
                guard let authOTT = replay.json?["authOTT"]?.stringValue else {
                    return .nonStrict("the replay answered \(replay.summary)")
                }
                let login = try await context.send(
                    .post, try await context.settingURL(.authenticateURL),
                    json: object(("mpinResponse", object(("authOTT", .string(authOTT))))))
                if login.status == 200 { return .fail("the replayed pass 2 got a second authOTT and it logged in") }
                return .nonStrict("the replay got a second authOTT, which the RPA refused (\(login.status))")
            },
            ConformanceCase(
                "pass2.without-pass1", .pass, .must, title: "A pass 2 with no pass 1 is refused without a server error",
                source: passSource
                    + "; docs/protocol.md §14 (the open-source server answers 500 \"Invalid pass one data\")",
                sends: "pass 2 for a registered user that sent no pass 1 (V a valid point)", expects: "a 4xx"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let mpin = MPin(curve: .bn254cx)
                let v = Hex.encode(mpin.mapToG1(mpin.hashID(Array(context.caseID.utf8))))
                let response = try await context.send(
                    .post, try await context.settingURL(.mpinAuthServerURL) + "/pass2",
                    json: object(
                        ("pass", 2), ("OTP", false), ("WID", "0"), ("V", .string(v)),
                        ("mpin_id", .string(user.mpinID))))
                return Expect.refusal(response, "pass 2 without pass 1")
            },
            ConformanceCase(
                "pass1.expiry", .pass, .should, title: "A pass 2 after the pass-1 lifetime is refused",
                source: passSource + " (pass-1 records live 15 s)",
                sends: "a login whose pass 2 is held back 16 s, then sent",
                expects: "a 4xx, or its authOTT refused", slow: true
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                user.wire.rewrite(pathSuffix: "/pass2") { request in
                    var request = request
                    request.url = String(request.url.dropLast("/pass2".count)) + "/conform-held-back"
                    return request
                }
                _ = try await context.login(user)
                guard var pass2 = user.wire.last("/conform-held-back")?.request else {
                    return .fail("no pass 2 was captured")
                }
                pass2.url = String(pass2.url.dropLast("/conform-held-back".count)) + "/pass2"
                await context.clock.sleep(seconds: 16)
                let late = try await context.resend(pass2)
                if late.isClientError { return .pass("refused after 16 s: \(late.status)") }
                if late.isServerError { return .fail("answered \(late.summary)") }
                guard let authOTT = late.json?["authOTT"]?.stringValue else {
                    return .nonStrict("answered \(late.summary)")
                }
                let login = try await context.send(
                    .post, try await context.settingURL(.authenticateURL),
                    json: object(("mpinResponse", object(("authOTT", .string(authOTT))))))
                return login.status == 200
                    ? .fail("a pass 2 sent 16 s after pass 1 logged in")
                    : .pass("its authOTT was refused: \(login.status)")
            },
        ]
    }
}
