import CurlTransport
import MPinCrypto
import MPinSDK
import ReferenceBackend
import SDKSeams
import Testing

/// Authentication flows of the SDK against the backend: wrong PINs to BLOCKED, OTP, wrong access
/// numbers, revocation, expiry, the midnight rule (the held access-number login is in
/// `SDKHeldLoginTests`).
@Suite struct SDKAuthenticationFlowTests {
    @Test func wrongPINThreeTimesBlocks() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "dave")
        for attempt in 1...3 {
            try await client.startAuthentication(user)
            let error = try await #require(throws: MPinError.self) {
                try await client.finishAuthentication(user, pin: "9999")
            }
            #expect(error.code == .incorrectPIN)
            #expect(error.context.httpStatus == (attempt < 3 ? 401 : 410))
        }
        #expect(user.state == .blocked)
    }

    @Test func wrongPINThenRightPINResetsTheCount() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "erin")
        for _ in 0..<2 {
            try await client.startAuthentication(user)
            #expect(await MPinError.code { try await client.finishAuthentication(user, pin: "1111") } == .incorrectPIN)
        }
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "1234")
        try await client.startAuthentication(user)
        #expect(await MPinError.code { try await client.finishAuthentication(user, pin: "1111") } == .incorrectPIN)
        #expect(user.state == .registered)
    }

    @Test func oneTimePassword() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "frank")
        try await client.startAuthentication(user)
        let otp = try await client.finishAuthenticationOTP(user, pin: "1234")
        #expect(otp.otp.count == 6 && otp.otp.allSatisfy(\.isNumber))
        #expect(otp.status.code == .ok)
        #expect(otp.ttlSeconds == 60 && otp.expireTime == otp.nowTime + 60)
    }

    @Test func tamperedAndUnknownAccessNumbers() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "heidi")
        let issued = try await harness.send(.post, "/rps/getAccessNumber", body: "{}").string("accessNumber")
        let check = Int(String(issued.last!))!
        let tampered = String(issued.dropLast()) + String((check + 1) % 10)
        #expect(await MPinError.code { try await client.checkAccessNumber(tampered) } == .incorrectAccessNumber)

        // A well-formed number the backend never issued: 412 on authentication.
        var unknown = ""
        for candidate in 100_000...999_999 {
            let six = String(candidate)
            if let digit = ReferenceBackend.accessNumberCheckDigit(six), six + String(digit) != issued {
                unknown = six + String(digit)
                break
            }
        }
        try await client.checkAccessNumber(unknown)
        try await client.startAuthentication(user)
        let error = try await #require(throws: MPinError.self) {
            try await client.finishAuthenticationAN(user, pin: "1234", accessNumber: unknown)
        }
        #expect(error.code == .incorrectAccessNumber && error.context.httpStatus == 412)
        #expect(user.state == .registered)
    }

    @Test func revokedUser() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "ivan")
        let revoked = try await harness.send(.post, "/admin/revoke", body: #"{"userId":"ivan"}"#)
        #expect(revoked.status == 200)
        #expect(await MPinError.code { try await client.startAuthentication(user) } == .revoked)
        #expect(user.state == .registered)
        _ = try await harness.send(.post, "/admin/restore", body: #"{"userId":"ivan"}"#)
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "1234")
    }

    @Test func expiredClientSecretSignature() async throws {
        let clock = ManualBackendClock(milliseconds: 1_700_000_000_000)
        let harness = try await BackendHarness.start(clock: clock)
        defer { Task { await harness.stop() } }
        // The signed parameters expire 60 s after the signature request; the phone is slower.
        let slow = DelayingTransport(
            inner: harness.transport, clock: clock, urlFragment: "/dta2/clientSecret", seconds: 61)
        let client = MPinClient(transport: slow, storage: MemoryStorage())
        try await client.initialize(configuration: ["backend": harness.baseURL])
        let user = try await client.makeNewUser(id: "judy")
        try await client.startRegistration(user)
        let error = try await #require(throws: MPinError.self) { try await client.confirmRegistration(user) }
        #expect(error.code == .requestExpired && error.context.httpStatus == 408)
    }

    @Test func serverAcceptsYesterdaysPermitJustAfterMidnight() async throws {
        let midnight: Int64 = 19_700 * 86_400_000
        let clock = ManualBackendClock(milliseconds: midnight - 10_000)
        let harness = try await BackendHarness.start(clock: clock)
        defer { Task { await harness.stop() } }
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "ken")
        try await client.startAuthentication(user)  // permit for day 19699
        clock.advance(seconds: 40)  // 00:00:30 of day 19700
        try await client.finishAuthentication(user, pin: "1234")

        try await client.startAuthentication(user)  // day 19700 now
        clock.set(milliseconds: midnight + 86_400_000 + 2 * 3_600_000)  // 02:00 the day after
        #expect(await MPinError.code { try await client.finishAuthentication(user, pin: "1234") } == .incorrectPIN)
    }
}

/// A transport that moves the backend's clock forward before sending requests whose URL
/// contains a fragment: a phone that took that long.
struct DelayingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let clock: ManualBackendClock
    let urlFragment: String
    let seconds: Double

    func send(_ request: SDKSeams.HTTPRequest) async throws(TransportError) -> SDKSeams.HTTPResponse {
        if request.url.contains(urlFragment) { clock.advance(seconds: seconds) }
        return try await inner.send(request)
    }
}
