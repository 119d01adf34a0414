import Foundation
import MPinSDK
import ReferenceBackend
import Testing

/// The synchronous access-number and QR login (docs/protocol.md §8.2, §8.3, §13): the SDK's
/// `finishAuthenticationAN` (or `finishAuthentication` with an access code) is held by the backend
/// while the browser's PIN pad, over real HTTP at the same time, sees the authOTT in its poll and
/// logs in at the RPA; only then does the phone's call return.
@Suite struct SDKHeldLoginTests {
    @Test func theBrowserLogsInWhileThePhoneIsHeld() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "grace")
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "{}")
        let accessNumber = shown.string("accessNumber")
        let browser = BrowserPinPad(harness: harness, webOTT: shown.string("webOTT"))
        #expect(try await browser.poll().string("status") == "new")

        try await client.checkAccessNumber(accessNumber)
        try await client.startAuthentication(user)
        let returned = Flag()
        let phone = Task {
            defer { returned.raise() }
            try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: accessNumber)
        }

        let held = try await browser.poll(until: "authenticate")
        #expect(held.string("userId") == "grace" && held.json["statusCode"] as? Int == 0)
        let authOTT = held.string("authOTT")
        #expect(authOTT.count == 32)
        #expect(!returned.isSet, "the phone's call returned before the browser logged in")
        #expect(harness.backend.heldLogins == 1)

        let login = try await browser.logIn(authOTT: authOTT)
        #expect(login.status == 200 && login.string("userId") == "grace" && !login.string("someUserData").isEmpty)
        #expect(harness.backend.heldLogins == 0)
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie.hasPrefix("mpinSession=") && cookie.hasSuffix("; Path=/; HttpOnly"))
        let token = String(cookie.dropFirst("mpinSession=".count).prefix { $0 != ";" })
        #expect(token.count == 32)

        try await phone.value
        #expect(await client.canLogout(user))
        let session = try await browser.session(token: token)
        #expect(session.status == 200 && session.string("status") == "loggedIn" && session.string("userId") == "grace")
        let after = try await browser.poll()
        #expect(after.status == 200 && after.string("status") == "expired" && after.json["statusCode"] as? Int == 0)
        #expect(after.string("authOTT").isEmpty)
        // The authOTT was picked up once.
        #expect(try await browser.logIn(authOTT: authOTT).status == 408)

        #expect(await client.logout(user))
        let loggedOut = try await harness.send(.get, "/session?sessionToken=\(token)")
        #expect(loggedOut.string("status") == "loggedOut" && loggedOut.string("userId") == "grace")
        #expect(!(await client.canLogout(user)))
    }

    @Test func movingTheBackendClockPastTheTimeoutEndsTheHold() async throws {
        let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)
        // A 120 s timeout, which also caps the hold in real time: ended within a minute, it was
        // the clock's move that ended it.
        let harness = try await BackendHarness.start(clock: clock) { $0.loginTimeout = 120 }
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "heidi")
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "{}")
        let browser = BrowserPinPad(harness: harness, webOTT: shown.string("webOTT"))
        try await client.startAuthentication(user)
        let phone = Task {
            await MPinError.code {
                try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: shown.string("accessNumber"))
            }
        }
        let held = try await browser.poll(until: "authenticate")
        #expect(harness.backend.heldLogins == 1)

        let advanced = ContinuousClock.now
        clock.advance(seconds: 120.5)
        #expect(await phone.value == .requestExpired)
        #expect(ContinuousClock.now - advanced < .seconds(60), "the 408 came with the real-time cap, not the clock")
        #expect(harness.backend.heldLogins == 0)
        #expect(try await browser.poll().string("status") == "expired")
        let late = try await browser.logIn(authOTT: held.string("authOTT"))
        #expect(late.status == 408 && late.message == "Expired authentication request")
        #expect(user.state == .registered)
    }

    @Test func aFrozenClockIsCappedByRealTime() async throws {
        let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)
        let harness = try await BackendHarness.start(clock: clock) { $0.loginTimeout = 0.3 }
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "ivan")
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "{}")
        try await client.startAuthentication(user)
        let started = ContinuousClock.now
        let error = try await #require(throws: MPinError.self) {
            try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: shown.string("accessNumber"))
        }
        let elapsed = ContinuousClock.now - started
        #expect(error.code == .requestExpired && error.context.httpStatus == 408)
        // Ended by the 0.3 s cap: never earlier; on a frozen clock nothing else would end it, so the
        // minute only bounds a hang.
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(60))
        #expect(harness.backend.heldLogins == 0)
        #expect(
            try await BrowserPinPad(harness: harness, webOTT: shown.string("webOTT")).poll().string("status")
                == "expired")
    }

    @Test func refusalsAreAnsweredAtOnce() async throws {
        // Held, a login would wait for the 120 s timeout: an answer within a minute was not held.
        let harness = try await BackendHarness.start { $0.loginTimeout = 120 }
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "judy")
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "{}")
        try await client.startAuthentication(user)
        let started = ContinuousClock.now
        let error = try await #require(throws: MPinError.self) {
            try await client.finishAuthenticationAN(user, pin: "9999", accessNumber: shown.string("accessNumber"))
        }
        #expect(error.code == .incorrectPIN && error.context.httpStatus == 401)
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(harness.backend.heldLogins == 0)
        #expect(
            try await BrowserPinPad(harness: harness, webOTT: shown.string("webOTT")).poll().string("authOTT").isEmpty)
    }

    /// A QR code of the Milagro flavour (`/rps/getQrUrl`): the same hold and release.
    @Test func qrCodeLoginIsHeldToo() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "kim")
        let shown = try await harness.send(.post, "/rps/getQrUrl", body: "{}")
        let qrURL = shown.string("qrUrl")
        let code = String(qrURL[qrURL.index(after: try #require(qrURL.lastIndex(of: "#")))...])
        let browser = BrowserPinPad(harness: harness, webOTT: shown.string("webOTT"))
        try await client.startAuthentication(user)
        let phone = Task { try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: code) }
        let held = try await browser.poll(until: "authenticate")
        #expect(harness.backend.heldLogins == 1)
        #expect(try await browser.logIn(authOTT: held.string("authOTT")).status == 200)
        try await phone.value
        #expect(await client.canLogout(user))
        #expect(try await browser.poll().string("status") == "expired")
    }
}
