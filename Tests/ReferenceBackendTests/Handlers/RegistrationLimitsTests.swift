import Foundation
import ReferenceBackend
import SDKSeams
import Testing

/// The registration's limits over HTTP: an activation code is cancelled after
/// `activationCodeTries` (3) wrong tries, and the right code is refused after that; at
/// `recordLimit` a client's oldest pending registration or activation code makes room. Before, 3,000 wrong codes
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

    /// At `recordLimit` the oldest pending registration of the client makes room (all of them are
    /// one client's here, 127.0.0.1).
    @Test func pendingRegistrationsMakeRoomAtTheLimit() async throws {
        let harness = try await BackendHarness.start { $0.recordLimit = 3 }
        defer { Task { await harness.stop() } }
        var answers: [RawResponse] = []
        for index in 0..<4 {
            let answer = try await put(harness, "user\(index)@example.com")
            #expect(answer.status == 200)
            answers.append(answer)
        }
        func signature(_ answer: RawResponse) async throws -> Int {
            try await harness.send(.get, "/rps/signature/\(answer.string("mpinId"))?regOTT=\(answer.string("regOTT"))")
                .status
        }
        #expect(try await signature(answers[0]) == 400, "the oldest pending registration was kept over the limit")
        #expect(try await signature(answers[3]) == 200)
    }

    @Test func activationCodesMakeRoomAtTheLimit() async throws {
        let harness = try await BackendHarness.start(activation: .code) { $0.recordLimit = 2 }
        defer { Task { await harness.stop() } }
        var codes: [String: String] = [:]
        for user in ["a", "b", "a", "c"] {
            #expect(try await harness.send(.post, "/activationCode", body: "{\"userId\":\"\(user)\"}").status == 200)
            codes[user] = try #require(await harness.backend.lastMessage(for: user)).value
        }
        // A user's new code takes the place of its old one as the newest; at the limit the oldest
        // (b's) makes room for c's.
        let code = try #require(codes["b"])
        #expect(try await put(harness, "b", code: code).status == 403)
        // The mailbox keeps the newest `recordLimit` messages.
        #expect(await harness.backend.mailbox().map(\.userID) == ["a", "c"])
    }
}
