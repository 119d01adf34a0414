import Foundation
import Hummingbird
import MilagroProtocol
import Testing

@testable import ReferenceBackend

/// The memory storage's bug that `milagro-oss` reproduces (docs/backend.md, "The storage the
/// profile reproduces"): a restart deletes the registration it replaces, and when that deleted
/// item is the first of the expiry list (on a fresh server, the first user's), the storage's
/// cleanup removes the index key the replacement now holds. A restart with a wrong regOTT then
/// finds no registration and makes a new one (200, a new M-Pin ID); the next user's gets 400. The
/// default profile has no such bug.
@Suite struct OpenSourceStorageBugTests {
    static func send(_ core: BackendCore, _ method: String, _ path: String, _ body: [String: Any]) async
        -> (status: Int, json: [String: Any])
    {
        let head = HTTPRequest(method: HTTPRequest.Method(method)!, scheme: "http", authority: "127.0.0.1", path: path)
        let data = try! JSONSerialization.data(withJSONObject: body)
        guard let answer = await core.openSourceAnswer(to: head, body: Array(data)) else { return (-1, [:]) }
        let json = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] ?? [:]
        return (answer.head.status.code, json)
    }

    /// Registers `user`, restarts with the right regOTT, then with a wrong one: the statuses of
    /// the two restarts and whether the last answer named another M-Pin ID.
    static func restarts(_ core: BackendCore, _ user: String) async -> (Int, Int, Bool) {
        let first = await send(core, "PUT", "/rps/user", ["userId": user, "mobile": 1])
        let id = first.json["mpinId"] as? String ?? ""
        let regOTT = first.json["regOTT"] as? String ?? ""
        #expect(first.status == 200 && !id.isEmpty && !regOTT.isEmpty)
        let right = await send(core, "PUT", "/rps/user/" + id, ["userId": user, "mobile": 1, "regOTT": regOTT])
        let wrong = await send(
            core, "PUT", "/rps/user/" + id, ["userId": user, "mobile": 1, "regOTT": String(repeating: "ab", count: 16)])
        return (right.status, wrong.status, (wrong.json["mpinId"] as? String).map { $0 != id } ?? false)
    }

    @Test func theFirstRestartOnAFreshServerLosesItsRegistration() async {
        var configuration = BackendConfiguration(flavour: .milagro, activation: .auto, seed: "storage")
        configuration.profile = .milagroOSS
        let core = BackendCore(configuration: configuration, clock: SystemBackendClock(), mail: { _ in })
        let (right1, wrong1, newID1) = await Self.restarts(core, "first@example.org")
        #expect(right1 == 200 && wrong1 == 200 && newID1, "the first user's restarts: \(right1), \(wrong1)")
        let (right2, wrong2, _) = await Self.restarts(core, "second@example.org")
        #expect(right2 == 200 && wrong2 == 400, "the second user's restarts: \(right2), \(wrong2)")
    }

    @Test func theDefaultProfileKeepsTheReplacement() async throws {
        let harness = try await BackendHarness.start(flavour: .milagro, activation: .auto)
        defer { Task { await harness.stop() } }
        let first = try await harness.send(.put, "/rps/user", body: "{\"userId\": \"first@example.org\"}")
        let id = first.string("mpinId")
        let regOTT = first.string("regOTT")
        let right = try await harness.send(
            .put, "/rps/user/" + id, body: "{\"userId\": \"first@example.org\", \"regOTT\": \"\(regOTT)\"}")
        #expect(right.status == 200)
        let wrong = try await harness.send(
            .put, "/rps/user/" + id,
            body: "{\"userId\": \"first@example.org\", \"regOTT\": \"\(String(repeating: "ab", count: 16))\"}")
        #expect(wrong.status == 400, "\(wrong.status) \(wrong.text)")
    }
}
