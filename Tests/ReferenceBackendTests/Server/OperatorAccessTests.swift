import Hummingbird
import NIOCore
@testable import ReferenceBackend
import Testing

/// The operator endpoints (`/admin/*`, `/devicesecurity/admin/*`) answer only loopback peers
/// unless `allowsRemoteAdmin`; the rest of the backend answers anyone. Before, the mailbox (with
/// activation links), revoke and restore answered every client.
@Suite struct OperatorAccessTests {
    private func status(_ path: String, from peer: SocketAddress?, remoteAdmin: Bool = false) async -> Int {
        var configuration = BackendConfiguration(seed: "operator")
        configuration.allowsRemoteAdmin = remoteAdmin
        let responder = BackendResponder(core: BackendCore(configuration: configuration, clock: ManualBackendClock(milliseconds: 0),
                                                           mail: { _ in }))
        let head = HTTPRequest(method: .get, scheme: "http", authority: "a", path: path)
        return await responder.respond(to: head, body: [], peer: peer).head.status.code
    }

    @Test func aRemotePeerIsRefusedTheOperatorEndpoints() async throws {
        let remote = try SocketAddress(ipAddress: "192.0.2.7", port: 5000)
        #expect(await status("/admin/mailbox", from: remote) == 403)
        #expect(await status("/admin/counts", from: remote) == 403)
        #expect(await status("/devicesecurity/admin/state", from: remote) == 403)
        #expect(await status("/admin/mailbox", from: nil) == 403)
        // The rest answers it.
        #expect(await status("/rps/clientSettings", from: remote) == 200)
    }

    @Test func loopbackPeersAndTheFlagAreLetIn() async throws {
        for address in ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"] {
            #expect(await status("/admin/mailbox", from: try SocketAddress(ipAddress: address, port: 5000)) == 200, "\(address)")
        }
        #expect(await status("/admin/mailbox", from: try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)) == 403)
        #expect(await status("/admin/mailbox", from: try SocketAddress(ipAddress: "192.0.2.7", port: 5000), remoteAdmin: true) == 200)
        #expect(await status("/devicesecurity/admin/state", from: try SocketAddress(ipAddress: "10.0.0.1", port: 1), remoteAdmin: true) == 200)
    }

    /// Over a real loopback connection the operator endpoints still answer (the peer is 127.0.0.1).
    @Test func theLoopbackHarnessStillReachesThem() async throws {
        let harness = try await BackendHarness.start()
        #expect(try await harness.send(.get, "/admin/counts").status == 200)
        await harness.stop()
    }
}
