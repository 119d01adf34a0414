import Foundation
import MPinCrypto
import Testing

@testable import ReferenceBackend

/// The default profile keeps the client's `mobile` flag (docs/protocol.md §3.1): the M-Pin ID's
/// document and the D-TA's parameters carry what the client sent, 1 when it sent none; any value
/// but 0 or 1 is refused. Before, both always said 1.
@Suite struct MobileFlagTests {
    private func client() throws -> CoreClient {
        try CoreClient(
            BackendCore(
                configuration: BackendConfiguration(seed: "mobile"), clock: ManualBackendClock(milliseconds: 0),
                mail: { _ in }), address: "127.0.0.1")
    }

    /// The M-Pin ID's document and the signature's `params` for a registration with `member`.
    private func register(_ member: String) async throws -> (document: String, params: String)? {
        let client = try client()
        let json = "{\"userId\":\"m@example.com\"" + (member.isEmpty ? "" : "," + member) + "}"
        let registered = await client.send(.put, "/rps/user", json: json)
        guard registered.status == 200, let mpinID = registered.body["mpinId"] as? String,
            let regOTT = registered.body["regOTT"] as? String
        else { return nil }
        let document = String(decoding: Hex.decode(mpinID) ?? [], as: UTF8.self)
        let signed = await client.send(.get, "/rps/signature/\(mpinID)?regOTT=\(regOTT)")
        return (document, signed.body["params"] as? String ?? "")
    }

    @Test func theClientsFlagIsKept() async throws {
        let browser = try #require(try await register("\"mobile\":0"))
        #expect(browser.document.contains("\"mobile\": 0"), "\(browser.document)")
        #expect(browser.params.contains("mobile=0"), "\(browser.params)")
        let phone = try #require(try await register("\"mobile\":1"))
        #expect(phone.document.contains("\"mobile\": 1") && phone.params.contains("mobile=1"))
        let unsaid = try #require(try await register(""))
        #expect(unsaid.document.contains("\"mobile\": 1") && unsaid.params.contains("mobile=1"))
        let boolean = try #require(try await register("\"mobile\":false"))
        #expect(boolean.params.contains("mobile=0"))
    }

    @Test(arguments: ["\"mobile\":2", "\"mobile\":\"0\"", "\"mobile\":-1", "\"mobile\":0.5", "\"mobile\":[]"])
    func otherValuesAreRefused(member: String) async throws {
        let answer = try await client().send(.put, "/rps/user", json: "{\"userId\":\"m@example.com\",\(member)}")
        #expect(answer.status == 400, "\(member)")
        #expect((answer.body["message"] as? String ?? "\(answer.body)").contains("mobile"), "\(answer.body)")
    }
}
