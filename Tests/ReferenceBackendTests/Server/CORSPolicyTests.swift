import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import ReferenceBackend

/// The default profile answers browser clients (docs/backend.md, "Browser clients"): a preflight
/// gets 200 with the CORS fields, every answer to a request with `Origin` says which origin may
/// read it, a request without `Origin` (the SDK's) gets none, and `corsOrigins` narrows `*` to a
/// list. Before, a preflight got 405 and no answer carried a CORS field.
@Suite struct CORSPolicyTests {
    static let backendURL = "http://127.0.0.1:8005"

    private func answer(
        _ method: HTTPRequest.Method, _ path: String, headers: [(String, String)], origins: [String]? = nil,
        profile: BackendProfile = .default
    ) async -> ServerAnswer {
        var configuration = BackendConfiguration(seed: "cors", profile: profile)
        configuration.corsOrigins = origins
        let core = BackendCore(configuration: configuration, clock: ManualBackendClock(milliseconds: 0), mail: { _ in })
        core.base.set(Self.backendURL)
        let responder = BackendResponder(core: core)
        var fields = HTTPFields()
        for (name, value) in headers {
            fields.append(HTTPFields.Element(name: HTTPFields.Element.Name(name)!, value: value))
        }
        let head = HTTPRequest(method: method, scheme: "http", authority: "a", path: path, headerFields: fields)
        return await responder.respond(to: head, body: [], peer: try? SocketAddress(ipAddress: "127.0.0.1", port: 1))
    }

    private func field(_ answer: ServerAnswer, _ name: String) -> String? {
        answer.head.headerFields[HTTPFields.Element.Name(name)!]
    }

    static let page = "http://127.0.0.1:8080"
    static let preflight = [
        ("Origin", page), ("Access-Control-Request-Method", "PUT"),
        ("Access-Control-Request-Headers", "content-type, x-requested-with"),
    ]

    @Test func aPreflightIsAllowed() async {
        let answer = await answer(.options, "/rps/user", headers: Self.preflight)
        #expect(answer.head.status.code == 200)
        #expect(field(answer, "Access-Control-Allow-Origin") == "*")
        #expect(field(answer, "Access-Control-Allow-Methods")?.contains("PUT") == true)
        #expect(field(answer, "Access-Control-Allow-Headers") == "content-type, x-requested-with")
        #expect(field(answer, "Access-Control-Max-Age") == "600")
        #expect(answer.body.isEmpty)
    }

    @Test func requestedHeadersThatAreNotTokensAreNotEchoed() async {
        let answer = await answer(
            .options, "/rps/user",
            headers: [
                ("Origin", Self.page), ("Access-Control-Request-Method", "PUT"),
                ("Access-Control-Request-Headers", "a\u{7f}b"),
            ])
        #expect(answer.head.status.code == 200)
        #expect(field(answer, "Access-Control-Allow-Headers") == nil)
    }

    @Test func aBrowsersRequestCanBeReadAndTheSDKsIsUnchanged() async {
        let browser = await answer(.get, "/rps/clientSettings", headers: [("Origin", Self.page)])
        #expect(browser.head.status.code == 200)
        #expect(field(browser, "Access-Control-Allow-Origin") == "*")
        let sdk = await answer(.get, "/rps/clientSettings", headers: [])
        #expect(sdk.head.status.code == 200)
        #expect(!sdk.head.headerFields.contains { $0.name.canonicalName.hasPrefix("access-control-") })
        // An OPTIONS without Origin is no preflight: 405 as before.
        #expect(await answer(.options, "/rps/user", headers: []).head.status.code == 405)
        // Errors are readable too, so that the page can show them.
        let missing = await answer(.get, "/rps/nothing", headers: [("Origin", Self.page)])
        #expect(missing.head.status.code == 404 && field(missing, "Access-Control-Allow-Origin") == "*")
    }

    @Test func aListOfOriginsEchoesTheAllowedOneAndRefusesTheRest() async {
        let allowed = await answer(.options, "/rps/user", headers: Self.preflight, origins: [Self.page])
        #expect(allowed.head.status.code == 200)
        #expect(field(allowed, "Access-Control-Allow-Origin") == Self.page)
        #expect(field(allowed, "Access-Control-Allow-Credentials") == "true")
        #expect(field(allowed, "Vary") == "Origin")
        let other = await answer(
            .options, "/rps/user",
            headers: [("Origin", "http://127.0.0.1:9"), ("Access-Control-Request-Method", "PUT")],
            origins: [Self.page])
        #expect(other.head.status.code == 403)
        #expect(String(decoding: other.body, as: UTF8.self).contains("http://127.0.0.1:9"))
        let read = await answer(
            .get, "/rps/clientSettings", headers: [("Origin", "http://127.0.0.1:9")], origins: [Self.page])
        #expect(read.head.status.code == 200 && field(read, "Access-Control-Allow-Origin") == nil)
    }

    /// A page on another origin resolves a relative URL against its own origin: its settings name
    /// the backend's origin; the SDK's stay relative.
    @Test func aPageOnAnotherOriginGetsAbsoluteSettings() async throws {
        let page = await answer(.get, "/rps/clientSettings", headers: [("Origin", Self.page)])
        let settings = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
        let register = try #require(settings["registerURL"] as? String)
        #expect(register == Self.backendURL + "/rps/user", "\(register)")
        #expect(settings["certivoxURL"] as? String == Self.backendURL + "/dta2/")
        // A page on the backend's own origin resolves relative URLs right: they stay relative.
        let same = await answer(.get, "/rps/clientSettings", headers: [("Origin", Self.backendURL)])
        let own = try #require(try JSONSerialization.jsonObject(with: Data(same.body)) as? [String: Any])
        #expect(own["registerURL"] as? String == "/rps/user")
        let sdk = await answer(.get, "/rps/clientSettings", headers: [])
        let relative = try #require(try JSONSerialization.jsonObject(with: Data(sdk.body)) as? [String: Any])
        #expect(relative["registerURL"] as? String == "/rps/user")
    }

    @Test func theHostedProfileAnswersAsItsServer() async {
        let hosted = await answer(
            .get, "/rps/clientSettings", headers: [("Origin", Self.page)], profile: .milagroHostedV3)
        #expect(field(hosted, "Vary") == nil)
        let preflight = await answer(.options, "/rps/user", headers: Self.preflight, profile: .milagroHostedV3)
        #expect(field(preflight, "Access-Control-Max-Age") == nil)
    }
}
