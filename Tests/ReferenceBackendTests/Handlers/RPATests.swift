import Foundation
import SDKSeams
import Testing

@testable import ReferenceBackend

/// The demo RPA over raw HTTP (docs/protocol.md §8.3, §13): the browser picks up a held phone login by
/// its authOTT, the browser sessions it makes (`GET /session`), the phone's logout, and the
/// direct login that stays as it was.
@Suite struct RPATests {
    /// A registered identity, a browser showing an access number, and the phone's passes for it.
    func heldSetup(_ harness: BackendHarness, user: String) async throws -> (
        identity: RawIdentity, browser: BrowserPinPad, authOTT: String
    ) {
        let identity = try await harness.rawRegister(user)
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "{}")
        let pass2 = try await harness.rawPasses(identity, wid: shown.string("accessNumber"))
        return (identity, BrowserPinPad(harness: harness, webOTT: shown.string("webOTT")), pass2.string("authOTT"))
    }

    @Test func theBrowserCannotLogInBeforeThePhone() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let (_, browser, authOTT) = try await heldSetup(harness, user: "ann")
        // Pass 2 alone shows nothing to the browser, and its authOTT is not yet a login.
        #expect(try await browser.poll().string("authOTT").isEmpty)
        let early = try await browser.logIn(authOTT: authOTT)
        #expect(
            early.status == 408 && early.message == "Expired authentication request"
                && early.header("Set-Cookie") == nil)

        // The phone's login is still there: it is held, then released by the browser.
        let phone = Task {
            try await harness.send(.post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(authOTT)"}}"#)
        }
        let held = try await browser.poll(until: "authenticate")
        #expect(held.string("authOTT") == authOTT && harness.backend.heldLogins == 1)
        let login = try await browser.logIn(authOTT: authOTT)
        #expect(login.status == 200 && login.json.keys.sorted() == ["someUserData", "userId"])
        let answer = try await phone.value
        #expect(answer.status == 200 && answer.string("logoutURL") == "/logout")
        let logoutData = try #require(answer.json["logoutData"] as? [String: String])
        #expect(logoutData["userId"] == "ann")
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie == "mpinSession=\(logoutData["sessionToken"] ?? ""); Path=/; HttpOnly")
    }

    @Test func sessionsAndLogout() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let (_, browser, authOTT) = try await heldSetup(harness, user: "bob")
        let phone = Task {
            try await harness.send(.post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(authOTT)"}}"#)
        }
        _ = try await browser.poll(until: "authenticate")
        _ = try await browser.logIn(authOTT: authOTT)
        let token =
            (try await phone.value).json["logoutData"].flatMap { ($0 as? [String: String])?["sessionToken"] } ?? ""

        #expect(try await harness.send(.get, "/session").status == 400)
        let unknown = try await harness.send(.get, "/session?sessionToken=00")
        #expect(unknown.status == 404 && !unknown.message.isEmpty)
        #expect(try await browser.session(token: token).string("status") == "loggedIn")
        #expect(try await harness.send(.post, "/session", body: "{}").status == 405)

        let wrongUser = try await harness.send(.post, "/logout", body: #"{"userId":"eve","sessionToken":"\#(token)"}"#)
        #expect(wrongUser.status == 400)
        let logout = try await harness.send(.post, "/logout", body: #"{"userId":"bob","sessionToken":"\#(token)"}"#)
        #expect(logout.status == 200 && logout.text.isEmpty)
        #expect(try await browser.session(token: token).string("status") == "loggedOut")
        #expect(
            try await harness.send(.post, "/logout", body: #"{"userId":"bob","sessionToken":"\#(token)"}"#).status
                == 400)
    }

    @Test func directLoginStaysAsItWas() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("carl")
        let login = try await harness.rawAuthenticate(identity)
        #expect(login.status == 200 && login.string("userId") == "carl" && login.header("Set-Cookie") == nil)
        // A direct authOTT at the phone's endpoint is answered at once, never held.
        let pass2 = try await harness.rawPasses(identity)
        let mobile = try await harness.send(
            .post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(pass2.string("authOTT"))"}}"#)
        #expect(mobile.status == 200 && mobile.string("userId") == "carl" && harness.backend.heldLogins == 0)
    }

    @Test func pollStatusCodeIsAlwaysZero() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await harness.stop() } }
        let shown = try await harness.send(.post, "/rps/getQrUrl", body: "{}")
        let qrURL = shown.string("qrUrl")
        let code = String(qrURL[qrURL.index(after: try #require(qrURL.lastIndex(of: "#")))...])
        let browser = BrowserPinPad(harness: harness, webOTT: shown.string("webOTT"))
        var seen: [String: Int] = [:]
        func record() async throws {
            let answer = try await browser.poll()
            seen[answer.string("status")] = answer.json["statusCode"] as? Int ?? -1
        }
        try await record()
        let cid: HTTPHeaders = ["X-MIRACL-CID": "workbench"]
        _ = try await harness.send(
            .post, "/rps/codeStatus", body: #"{"status":"user","wid":"\#(code)","userId":"dan"}"#, headers: cid)
        try await record()
        _ = try await harness.send(
            .post, "/rps/codeStatus", body: #"{"status":"abort","wid":"\#(code)"}"#, headers: cid)
        try await record()
        #expect(seen == ["new": 0, "user": 0, "aborted": 0])
    }
}
