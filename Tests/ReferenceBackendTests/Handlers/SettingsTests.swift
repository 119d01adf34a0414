import Foundation
import MPinSDK
import ReferenceBackend
import SDKSeams
import Synchronization
import Testing

/// The client settings against what the backend does (docs/protocol.md §2, §8.4): the time-permit
/// storage that answers 404 (the SDK then asks D-TA 2), and `requestOTP` agreeing with the RPA.
@Suite struct SettingsTests {
    @Test func timePermitStorageAnswers404() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let settings = try await harness.send(.get, "/rps/clientSettings")
        #expect(settings.string("timePermitsStorageURL") == "/timePermitsStorage")
        for path in ["/timePermitsStorage", "/timePermitsStorage/app/17085/abcd", "/timePermitsStorage/x"] {
            let answer = try await harness.send(.get, path)
            #expect(answer.status == 404 && !answer.message.isEmpty, "\(path)")
        }
        #expect(try await harness.send(.post, "/timePermitsStorage/a", body: "{}").status == 405)
        // The MFA platform has no time permits, and no storage.
        let platform = try await BackendHarness.start(flavour: .mfaPlatform)
        defer { Task { await platform.stop() } }
        #expect(try await platform.send(.get, "/timePermitsStorage/a").status == 404)
        #expect(
            try await platform.send(.get, "/rps/clientSettings", headers: ["X-MIRACL-CID": "a"]).json[
                "timePermitsStorageURL"] == nil)
    }

    @Test func theSDKFallsBackToTheDTAAfterTheStorage404() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let log = URLLog(inner: harness.transport)
        let client = MPinClient(transport: log, storage: MemoryStorage())
        try await client.initialize(configuration: ["backend": harness.baseURL])
        let user = try await harness.registeredUser(client, id: "sam")
        log.clear()
        try await client.startAuthentication(user)
        try await client.finishAuthentication(user, pin: "1234")
        let appID = try await harness.send(.get, "/rps/clientSettings").string("appID")
        let exchanges = log.exchanges.map { ($0.url.replacingOccurrences(of: harness.baseURL, with: ""), $0.status) }
        #expect(exchanges.count == 6)
        guard exchanges.count == 6 else { return }
        #expect(exchanges[0].0.hasPrefix("/rps/timePermit/") && exchanges[0].1 == 200)
        #expect(exchanges[1].0.hasPrefix("/timePermitsStorage/\(appID)/") && exchanges[1].1 == 404)
        #expect(exchanges[2].0.hasPrefix("/dta2/timePermit?") && exchanges[2].1 == 200)
        #expect(exchanges.dropFirst(3).map(\.0) == ["/rps/pass1", "/rps/pass2", "/mpinAuthenticate"])
        #expect(exchanges.dropFirst(3).allSatisfy { $0.1 == 200 })
    }

    /// Default profile: `requestOTP: true`, and the RPA answers the OTP's validity exactly when the
    /// login asked for an OTP; any other login gets user data.
    @Test func requestOTPAgreesWithTheRPA() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        #expect(try await harness.send(.get, "/rps/clientSettings").json["requestOTP"] as? Bool == true)
        let client = try await harness.client()
        let user = try await harness.registeredUser(client, id: "tina")
        try await client.startAuthentication(user)
        let otp = try await client.finishAuthenticationOTP(user, pin: "1234")
        #expect(otp.status.code == .ok && otp.ttlSeconds == 60 && otp.otp.count == 6)
        try await client.startAuthentication(user)
        let plain = try await client.finishAuthentication(user, pin: "1234")
        #expect(plain.contains("someUserData") && !plain.contains("expireTime"))
    }
}

/// A transport that notes the URL and status of every exchange it passes on.
final class URLLog: HTTPTransport, Sendable {
    struct Exchange {
        var url: String
        var status: Int
    }

    let inner: any HTTPTransport
    private let noted = Mutex<[Exchange]>([])

    init(inner: any HTTPTransport) {
        self.inner = inner
    }

    var exchanges: [Exchange] { noted.withLock { $0 } }

    func clear() { noted.withLock { $0 = [] } }

    func send(_ request: SDKSeams.HTTPRequest) async throws(TransportError) -> SDKSeams.HTTPResponse {
        let response = try await inner.send(request)
        noted.withLock { $0.append(Exchange(url: request.url, status: response.status)) }
        return response
    }
}
