import Foundation
import ReferenceBackend
import SDKSeams
import Testing

/// The registration's limits over HTTP: an activation code is cancelled after
/// `activationCodeTries` (3) wrong tries, and the right code is refused after that; pending
/// registrations and activation codes stop at `recordLimit` with a 503. Before, 3,000 wrong codes
/// got 403 and the right one still worked, and 120,000 unauthenticated PUTs were all kept.
@Suite struct RegistrationLimitsTests {
    private func put(_ harness: BackendHarness, _ user: String, code: String? = nil) async throws -> RawResponse {
        var body: [String: Any] = ["userId": user, "mobile": 1]
        if let code { body["activateCode"] = code }
        return try await harness.send(.put, "/rps/user", body: BackendHarness.json(body))
    }

    @Test func threeWrongActivationCodesCancelTheCode() async throws {
        let harness = try await BackendHarness.start(activation: .code)
        defer { Task { await harness.stop() } }
        #expect(try await harness.send(.post, "/activationCode", body: #"{"userId":"eve@example.com"}"#).status == 200)
        let code = try #require(await harness.backend.lastMessage(for: "eve@example.com")).value
        let wrong = code == "00000000" ? "00000001" : "00000000"
        let first = try await put(harness, "eve@example.com", code: wrong)
        #expect(first.status == 403)
        #expect(first.message == "Invalid or expired activation code", "\(first.text)")
        #expect(try await put(harness, "eve@example.com", code: wrong).status == 403)
        let third = try await put(harness, "eve@example.com", code: wrong)
        #expect(third.status == 403)
        #expect(third.message.contains("after 3 wrong tries the code is cancelled"), "\(third.text)")
        let right = try await put(harness, "eve@example.com", code: code)
        #expect(right.status == 403, "the right code still worked after 3 wrong tries")
        // A new code works.
        #expect(try await harness.send(.post, "/activationCode", body: #"{"userId":"eve@example.com"}"#).status == 200)
        let fresh = try #require(await harness.backend.lastMessage(for: "eve@example.com")).value
        #expect(try await put(harness, "eve@example.com", code: fresh).status == 200)
    }

    /// Two wrong tries leave the code usable: the count is per code, and the limit is not one.
    @Test func twoWrongTriesLeaveTheCode() async throws {
        let harness = try await BackendHarness.start(activation: .code)
        defer { Task { await harness.stop() } }
        #expect(try await harness.send(.post, "/activationCode", body: #"{"userId":"ann@example.com"}"#).status == 200)
        let code = try #require(await harness.backend.lastMessage(for: "ann@example.com")).value
        let wrong = code == "00000000" ? "00000001" : "00000000"
        #expect(try await put(harness, "ann@example.com", code: wrong).status == 403)
        #expect(try await put(harness, "ann@example.com", code: wrong).status == 403)
        #expect(try await put(harness, "ann@example.com", code: code).status == 200)
    }

    @Test func pendingRegistrationsStopAtTheLimit() async throws {
        let harness = try await BackendHarness.start { $0.recordLimit = 3 }
        defer { Task { await harness.stop() } }
        var first: RawResponse?
        for index in 0..<3 {
            let answer = try await put(harness, "user\(index)@example.com")
            #expect(answer.status == 200)
            if first == nil { first = answer }
        }
        let refused = try await put(harness, "user3@example.com")
        #expect(refused.status == 503)
        #expect(refused.message == "The backend holds 3 pending registrations, its limit: try again once some have expired")
        // A pending registration completed (signature) makes room; the identity store has room too.
        let pending = try #require(first)
        let signed = try await harness.send(.get, "/rps/signature/\(pending.string("mpinId"))?regOTT=\(pending.string("regOTT"))")
        #expect(signed.status == 200, "\(signed.text)")
        #expect(try await put(harness, "user3@example.com").status == 200)
        #expect(try await put(harness, "user4@example.com").status == 503)
    }

    @Test func activationCodesStopAtTheLimit() async throws {
        let harness = try await BackendHarness.start(activation: .code) { $0.recordLimit = 2 }
        defer { Task { await harness.stop() } }
        #expect(try await harness.send(.post, "/activationCode", body: #"{"userId":"a"}"#).status == 200)
        #expect(try await harness.send(.post, "/activationCode", body: #"{"userId":"b"}"#).status == 200)
        // A user's new code replaces the old one, even at the limit.
        #expect(try await harness.send(.post, "/activationCode", body: #"{"userId":"a"}"#).status == 200)
        let refused = try await harness.send(.post, "/activationCode", body: #"{"userId":"c"}"#)
        #expect(refused.status == 503)
        #expect(refused.message.contains("2 activation codes, its limit"))
        // The mailbox keeps the newest `recordLimit` messages.
        #expect(await harness.backend.mailbox().map(\.userID) == ["b", "a"])
    }
}
