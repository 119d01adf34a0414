import MilagroProtocol
import OrderedJSON
import SDKSeams

/// HTTP hygiene: content types, 404/405/413, malformed bodies answered 4xx never 5xx, nothing
/// internal in error bodies, `WWW-Authenticate` on 401 (docs/protocol.md §1, §4, §13; RFC 9110).
extension ConformanceCatalog {
    static var http: [ConformanceCase] {
        var cases = [
            ConformanceCase(
                "http.json-content-type", .http, .should, title: "JSON answers say they are JSON",
                source: "RFC 8259 §11; docs/protocol.md §1 (the SDK parses any 200 as JSON)",
                sends: "GET /rps/clientSettings", expects: "Content-Type application/json"
            ) { context async throws(ConformanceError) in
                let response = try await context.send(.get, "/\(context.rpsPrefix)/clientSettings")
                guard response.status == 200 else { return .fail("the settings answered \(response.summary)") }
                switch response.mediaType {
                case "application/json": return .pass("Content-Type \(response.headers["Content-Type"] ?? "")")
                case let other?: return .nonStrict("JSON sent as \(other) (the SDK parses it anyway)")
                case nil: return .nonStrict("JSON sent without a Content-Type")
                }
            },
            ConformanceCase(
                "http.error-json", .http, .should, title: "Refusals with a body carry JSON",
                source: "docs/protocol.md §4, §13 (the SDK keeps the body of a refusal for the app)",
                sends: "POST pass1 with a body that is not JSON", expects: "a 4xx whose body, if any, is JSON"
            ) {
                context async throws(ConformanceError) in
                let url = try await context.settingURL(.mpinAuthServerURL) + "/pass1"
                let response = try await context.send(.post, url, body: bytes("not json"))
                guard response.isClientError else { return .fail("answered \(response.summary), not a 4xx") }
                if response.body.isEmpty {
                    return .nonStrict("\(response.status) with an empty body: the client learns nothing")
                }
                return response.json != nil
                    ? .pass("\(response.status) with a JSON body")
                    : .nonStrict("\(response.status) with a body that is not JSON: \(response.excerpt)")
            },
            ConformanceCase(
                "http.unknown-path", .http, .must, title: "An unknown path is 404",
                source: "RFC 9110 §15.5.5", sends: "GET /rps/no-such-endpoint-conform", expects: "404"
            ) {
                context async throws(ConformanceError) in
                let response = try await context.send(.get, "/\(context.rpsPrefix)/no-such-endpoint-conform")
                return response.status == 404
                    ? .pass("404") : Expect.refusal(response, "an unknown path", preferred: [404])
            },
            ConformanceCase(
                "http.method-pass1", .http, .should, title: "GET on pass 1 is 405",
                source: "RFC 9110 §15.5.6", sends: "GET <mpinAuthServerURL>/pass1", expects: "405"
            ) {
                context async throws(ConformanceError) in
                let response = try await context.send(.get, try await context.settingURL(.mpinAuthServerURL) + "/pass1")
                return Expect.refusal(response, "GET on pass 1", preferred: [405])
            },
            ConformanceCase(
                "http.method-settings", .http, .should, title: "DELETE on the client settings is 405",
                source: "RFC 9110 §15.5.6", sends: "DELETE /rps/clientSettings", expects: "405"
            ) {
                context async throws(ConformanceError) in
                let response = try await context.send(.delete, "/\(context.rpsPrefix)/clientSettings")
                return Expect.refusal(response, "DELETE on the settings", preferred: [405])
            },
            ConformanceCase(
                "http.method-register", .http, .should, title: "GET on the registration is 405",
                source: "RFC 9110 §15.5.6; docs/protocol.md §3.1 (PUT)", sends: "GET <registerURL>", expects: "405"
            ) {
                context async throws(ConformanceError) in
                let response = try await context.send(.get, try await context.settingURL(.registerURL))
                return Expect.refusal(response, "GET on the registration", preferred: [405])
            },
            ConformanceCase(
                "http.oversized-body", .http, .should, title: "A 256 KiB body is refused, not processed",
                source: "RFC 9110 §15.5.14", sends: "POST pass1 with a 256 KiB JSON body",
                expects: "413 (another 4xx is non-strict)"
            ) {
                context async throws(ConformanceError) in
                let url = try await context.settingURL(.mpinAuthServerURL) + "/pass1"
                let padding = String(repeating: "a", count: 256 * 1024)
                let response = try await context.send(
                    .post, url, body: bytes("{\"pass\":1,\"mpin_id\":\"\(padding)\",\"U\":\"\",\"UT\":\"\"}"))
                return Expect.refusal(response, "a 256 KiB body", preferred: [413])
            },
            ConformanceCase(
                "http.no-leaks", .http, .must, title: "Error bodies hold no stack traces or source paths",
                source: "OWASP ASVS 7.4.1; issue 28",
                sends: "six malformed requests to pass 1, pass 2, the registration and the logins",
                expects: "no trace, exception or source path in any answer"
            ) { context async throws(ConformanceError) in
                var leaks: [String] = []
                for (method, url, body) in try await malformedTargets(context) {
                    let response = try await context.send(method, url, body: bytes(body))
                    if let text = response.bodyText, let marker = Expect.leak(in: text) {
                        leaks.append("\(url): \(marker)")
                    }
                }
                return leaks.isEmpty
                    ? .pass("no answer leaked internals")
                    : .fail("internals in error bodies: \(leaks.joined(separator: "; "))")
            },
            ConformanceCase(
                "http.www-authenticate", .http, .may, title: "Whether a 401 carries WWW-Authenticate",
                source:
                    "RFC 9110 §15.5.2 (a 401 MUST carry it) against docs/protocol.md §4 (Apple URL loading then treats the answer as a challenge; the open-source server sends `Authenticate`)",
                sends: "a login with a wrong PIN", expects: "reported only"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.login(user, pin: user.wrongPIN)
                guard let exchange = user.wire.exchanges.last(where: { $0.response?.status == 401 }),
                    let response = exchange.response
                else {
                    return .informational("no 401 came back (\(outcome)); nothing to report")
                }
                let value = response.headers["WWW-Authenticate"]
                return .informational(
                    value.map { "401 carries WWW-Authenticate: \($0)" } ?? "401 without WWW-Authenticate")
            },
            ConformanceCase(
                "http.success-is-200", .http, .must, title: "Every step of a login answers exactly 200",
                source: "docs/protocol.md §1 (the SDK treats any status but 200 as an error)",
                sends: "a registration and a login through the SDK",
                expects: "200 on every request but the time-permit storage's"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let outcome = try await context.login(user)
                let other = user.wire.exchanges.filter { exchange in
                    guard let status = exchange.response?.status else { return false }
                    return (200..<300).contains(status) && status != 200
                }
                if !other.isEmpty {
                    return .fail(
                        other.map { "\($0.request.url) answered \($0.response?.status ?? 0)" }.joined(separator: "; "))
                }
                return outcome.isOK
                    ? .pass("\(user.wire.exchanges.count) requests, every success a 200")
                    : .fail("the login failed: \(outcome)")
            },
        ]
        cases += malformedCases
        return cases
    }

    /// The requests of the malformed-body cases: method, absolute URL, body.
    static func malformedTargets(_ context: ConformanceContext) async throws(ConformanceError) -> [(
        HTTPMethod, String, String
    )] {
        let rps = try await context.settingURL(.mpinAuthServerURL)
        return [
            (.post, rps + "/pass1", "{\"pass\": 1, \"mpin_id\": "),
            (.post, rps + "/pass2", "[1, 2, 3]"),
            (.put, try await context.settingURL(.registerURL), "{\"userId\": 5, \"mobile\": \"x\"}"),
            (.post, try await context.settingURL(.mobileAuthenticateURL), "{\"mpinResponse\": \"x\"}"),
            (.post, try await context.settingURL(.authenticateURL), "{}"),
            (.post, rps + "/pass1", "\u{FFFD}\u{0}"),
        ]
    }

    /// One case per malformed body: answered 4xx, never 5xx (docs/protocol.md §14: the open-source server
    /// answers many of these with 500).
    static var malformedCases: [ConformanceCase] {
        let bodies:
            [(id: String, what: String, endpoint: ClientSettingsKey, suffix: String, method: HTTPMethod, body: String)] =
                [
                    (
                        "pass1-truncated", "truncated JSON to pass 1", .mpinAuthServerURL, "/pass1", .post,
                        "{\"pass\": 1, \"mpin_id\": "
                    ),
                    ("pass1-array", "a JSON array to pass 1", .mpinAuthServerURL, "/pass1", .post, "[]"),
                    ("pass1-empty", "an empty body to pass 1", .mpinAuthServerURL, "/pass1", .post, ""),
                    (
                        "pass1-types", "pass 1 with U as a number", .mpinAuthServerURL, "/pass1", .post,
                        "{\"pass\": 1, \"mpin_id\": \"00\", \"U\": 5, \"UT\": \"\"}"
                    ),
                    (
                        "pass1-not-utf8", "bytes that are not UTF-8 to pass 1", .mpinAuthServerURL, "/pass1", .post,
                        "\u{FF}"
                    ),
                    (
                        "pass2-truncated", "truncated JSON to pass 2", .mpinAuthServerURL, "/pass2", .post,
                        "{\"pass\": 2, "
                    ),
                    (
                        "pass2-types", "pass 2 with V as an object", .mpinAuthServerURL, "/pass2", .post,
                        "{\"pass\": 2, \"mpin_id\": \"00\", \"V\": {}, \"WID\": \"0\", \"OTP\": false}"
                    ),
                    (
                        "register-truncated", "truncated JSON to the registration", .registerURL, "", .put,
                        "{\"userId\": "
                    ),
                    (
                        "register-types", "a registration with userId as a number", .registerURL, "", .put,
                        "{\"userId\": 42, \"mobile\": 1}"
                    ),
                    (
                        "authenticate-truncated", "truncated JSON to the phone's login", .mobileAuthenticateURL, "",
                        .post, "{\"mpinResponse\": {"
                    ),
                    (
                        "authenticate-types", "the phone's login with mpinResponse as a string", .mobileAuthenticateURL,
                        "", .post, "{\"mpinResponse\": \"x\"}"
                    ),
                    (
                        "rpa-truncated", "truncated JSON to the RPA's login", .authenticateURL, "", .post,
                        "{\"mpinResponse\""
                    ),
                    ("rpa-missing", "the RPA's login without mpinResponse", .authenticateURL, "", .post, "{}"),
                    (
                        "access-truncated", "truncated JSON to the browser's poll", .accessNumberURL, "", .post,
                        "{\"webOTT\": "
                    ),
                ]
        return bodies.map { item in
            ConformanceCase(
                "http.malformed-\(item.id)", .http, .must, title: "Malformed body: \(item.what) is a 4xx",
                source: "RFC 9110 §15.5.1, §15.6; docs/protocol.md §14 (the open-source server answers 500)",
                sends: item.what + (item.body.isEmpty ? "" : ": " + item.body), expects: "a 4xx, never a 5xx"
            ) {
                context async throws(ConformanceError) in
                guard let found = try await context.settings().url(item.endpoint), !found.isEmpty else {
                    return .unimplemented("the client settings have no \(item.endpoint.rawValue)")
                }
                let url = found + item.suffix
                let body = item.id == "pass1-not-utf8" ? [0xFF, 0xFE, 0x7B] : bytes(item.body)
                return Expect.refusal(try await context.send(item.method, url, body: body), item.what)
            }
        }
    }
}
