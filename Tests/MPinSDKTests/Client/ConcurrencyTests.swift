import Foundation
import MPinSDK
import Testing

@Suite struct ConcurrencyTests {
    /// Calls from many tasks run one at a time: the state ends consistent and every call's
    /// events are contiguous (call … result, never interleaved).
    @Test func concurrentCallsDoNotInterleave() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let client = harness.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    switch index % 4 {
                    case 0: _ = try await client.listUsers()
                    case 1: try await client.checkAccessNumber("4241703")
                    case 2: _ = await client.clientParameter("appID")
                    default: _ = try await client.listBackends()
                    }
                }
            }
            try await group.waitForAll()
        }
        var open: String?
        for event in harness.log.events {
            switch event {
            case .call(let call):
                #expect(open == nil, "\(call.name) started inside \(open ?? "")")
                open = call.name
            case .result(let result):
                #expect(open == result.name)
                open = nil
            default:
                #expect(open != nil)
            }
        }
        #expect(user.state == .registered)
    }

    @Test func concurrentAuthenticationsStayConsistent() async throws {
        let harness = Harness()
        let user = try await harness.registered()
        let client = harness.client
        harness.transport.add(Canned.timePermits)
        try await client.startAuthentication(user)
        for _ in 0..<8 { harness.transport.add([Canned.pass1(), Canned.pass2(), Canned.rpa()]) }
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await client.finishAuthentication(user, pin: "1234") } }
            var all: [String] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        #expect(harness.transport.problems.isEmpty)
        #expect(harness.transport.remaining == 0)
    }
}
