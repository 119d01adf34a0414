import Foundation
import Synchronization
import Testing

/// The browser's side of an access-number or QR login over real HTTP: it polls `/rps/access`
/// with its webOTT and, once the phone's login is held (`authenticate`), logs in at the RPA
/// with the authOTT the poll shows (docs/protocol.md §8.2, §8.3).
struct BrowserPinPad {
    let harness: BackendHarness
    let webOTT: String

    var pollBody: String { #"{"webOTT":"\#(webOTT)"}"# }

    /// One poll.
    func poll() async throws -> RawResponse {
        try await harness.send(.post, "/rps/access", body: pollBody)
    }

    /// Polls every 10 ms until the status is `status`; fails the test (and returns the last
    /// answer) when it is not seen within `limit`.
    func poll(until status: String, within limit: Duration = .seconds(8)) async throws -> RawResponse {
        let deadline = ContinuousClock.now + limit
        var last = try await poll()
        while last.string("status") != status && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            last = try await poll()
        }
        #expect(last.string("status") == status, "the poll never said \(status): \(last.text)")
        return last
    }

    /// The PIN pad's login at the RPA with an authOTT.
    func logIn(authOTT: String) async throws -> RawResponse {
        try await harness.send(.post, "/mpinAuthenticate", body: #"{"mpinResponse":{"authOTT":"\#(authOTT)"}}"#)
    }

    /// `GET /session` for a session token, given as the RPA's cookie.
    func session(token: String) async throws -> RawResponse {
        try await harness.send(.get, "/session", headers: ["Cookie": "theme=dark; mpinSession=\(token)"])
    }
}

/// A flag set once from one task and read from another.
final class Flag: Sendable {
    private let raised = Mutex(false)

    var isSet: Bool { raised.withLock { $0 } }

    func raise() { raised.withLock { $0 = true } }
}
