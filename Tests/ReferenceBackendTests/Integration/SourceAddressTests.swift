import CurlTransport
import Foundation
import ReferenceBackend
import SDKSeams
import Testing

/// The per-client quotas over real HTTP: two clients on distinct source addresses (127.0.0.2 and
/// 127.0.0.3, libcurl's local address), the backend told them apart by the connection's peer. The
/// flooder sends six times its quota of registrations (each answered 200: its own oldest make
/// room); the other client's registration from before the flood still completes, and a new one is
/// taken. Before, the flood filled the store and both got 503. (`ClientFloodTests` sends 12,000
/// through the core.)
@Suite struct SourceAddressTests {
    private func client(_ address: String) -> CurlTransport {
        CurlTransport(options: .init(defaultTimeout: 60, connectTimeout: 30, localAddress: address))
    }

    private func register(_ transport: CurlTransport, _ base: String, _ user: String) async throws -> RawResponse {
        let body = BackendHarness.json(["userId": user, "mobile": 1])
        let request = HTTPRequest(
            method: .put, url: base + "/rps/user", headers: ["Content-Type": "application/json"], body: Array(body.utf8)
        )
        return RawResponse(response: try await transport.send(request))
    }

    @Test func aFloodFromOneSourceAddressLeavesAnotherItsRegistrations() async throws {
        let harness = try await BackendHarness.start {
            $0.recordLimit = 40
            $0.clientRecordLimit = 20
        }
        defer { Task { await harness.stop() } }
        let flooder = client("127.0.0.2"), other = client("127.0.0.3")
        let before = try await register(other, harness.baseURL, "before@example.com")
        #expect(before.status == 200, "\(before.text)")
        var statuses: [Int: Int] = [:]
        for index in 0..<120 {
            statuses[try await register(flooder, harness.baseURL, "flood\(index)@example.com").status, default: 0] += 1
        }
        #expect(statuses == [200: 120], "\(statuses)")
        let after = try await register(other, harness.baseURL, "after@example.com")
        #expect(after.status == 200, "\(after.text)")
        for registration in [before, after] {
            let request = HTTPRequest(
                method: .get,
                url: harness.baseURL
                    + "/rps/signature/\(registration.string("mpinId"))?regOTT=\(registration.string("regOTT"))")
            let signature = RawResponse(response: try await other.send(request))
            #expect(signature.status == 200, "\(signature.text)")
        }
    }
}
