import MPinSDK
import Testing

@testable import ReferenceBackend

/// Many clients at once: registrations and authentications in parallel, access numbers unique.
/// Debug builds run the crypto many times slower, so they use fewer clients.
@Suite(.serialized) struct ConcurrencyTests {
    #if DEBUG
        static let clients = 8
    #else
        static let clients = 16
    #endif

    @Test func parallelRegistrationsAndAuthentications() async throws {
        let harness = try await BackendHarness.start(seed: nil)
        defer { Task { await harness.stop() } }
        let count = Self.clients
        let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for index in 0..<count {
                group.addTask {
                    let client = try await harness.client()
                    let user = try await harness.registeredUser(client, id: "user\(index)", pin: String(1000 + index))
                    try await client.startAuthentication(user)
                    try await client.finishAuthentication(user, pin: String(1000 + index))
                    // And a wrong PIN is still refused under load.
                    try await client.startAuthentication(user)
                    let refused =
                        await MPinError.code { try await client.finishAuthentication(user, pin: "0") } == .incorrectPIN
                    return (user.mpinID, refused)
                }
            }
            var all: [(String, Bool)] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == count)
        #expect(Set(outcomes.map(\.0)).count == count)
        #expect(outcomes.allSatisfy { $0.1 })
        let counts = try await harness.send(.get, "/admin/counts")
        #expect(counts.json["identities"] as? Int == count)
        #expect(
            counts.json["pass1"] as? Int == 0 && counts.json["auths"] as? Int == 0
                && counts.json["registrations"] as? Int == 0)
    }

    @Test func parallelRawAuthenticationsOfOneBackend() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identities = try await (0..<Self.clients / 2).asyncMap { try await harness.rawRegister("raw\($0)") }
        // Identities authenticate in parallel; the passes of one identity run in order (pass 1 is
        // kept per M-Pin ID, so two interleaved logins of one ID are a client error, not a server one).
        let outcomes = try await withThrowingTaskGroup(of: [(Int32, Int)].self) { group in
            for identity in identities {
                group.addTask {
                    var results: [(Int32, Int)] = []
                    for pin: Int32 in [1234, 1234, 5] {
                        results.append((pin, try await harness.rawAuthenticate(identity, pin: pin).status))
                    }
                    return results
                }
            }
            var all: [(Int32, Int)] = []
            for try await outcome in group { all.append(contentsOf: outcome) }
            return all
        }
        #expect(outcomes.count == identities.count * 3)
        #expect(outcomes.allSatisfy { $0.0 == 1234 ? $0.1 == 200 : $0.1 == 401 })
    }

    @Test func accessNumbersAreUniqueAndValid() async throws {
        let harness = try await BackendHarness.start(seed: nil)
        defer { Task { await harness.stop() } }
        let numbers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await harness.send(.post, "/rps/getAccessNumber", body: "{}").string("accessNumber")
                }
            }
            var all: [String] = []
            for try await number in group { all.append(number) }
            return all
        }
        #expect(Set(numbers).count == 100)
        for number in numbers {
            #expect(number.count == 7)
            #expect(ReferenceBackend.accessNumberCheckDigit(String(number.prefix(6))) == Int(String(number.last!)))
        }
    }
}
