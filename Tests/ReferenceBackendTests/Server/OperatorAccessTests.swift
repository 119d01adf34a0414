import Hummingbird
import NIOCore
import Testing

@testable import ReferenceBackend

/// The operator endpoints (`/admin/*`, `/devicesecurity/admin/*`) answer only loopback peers
/// unless `allowsRemoteAdmin`; the rest of the backend answers anyone. Before, the mailbox (with
/// activation links), revoke and restore answered every client.
@Suite struct OperatorAccessTests {
    private func status(
        _ path: String, from peer: SocketAddress?, remoteAdmin: Bool = false, headers: HTTPFields = HTTPFields()
    ) async -> Int {
        var configuration = BackendConfiguration(seed: "operator")
        configuration.allowsRemoteAdmin = remoteAdmin
        let responder = BackendResponder(
            core: BackendCore(
                configuration: configuration, clock: ManualBackendClock(milliseconds: 0),
                mail: { _ in }))
        let head = HTTPRequest(method: .get, scheme: "http", authority: "a", path: path, headerFields: headers)
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
            #expect(
                await status("/admin/mailbox", from: try SocketAddress(ipAddress: address, port: 5000)) == 200,
                "\(address)")
        }
        #expect(await status("/admin/mailbox", from: try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)) == 403)
        #expect(
            await status(
                "/admin/mailbox", from: try SocketAddress(ipAddress: "192.0.2.7", port: 5000), remoteAdmin: true) == 200
        )
        #expect(
            await status(
                "/devicesecurity/admin/state", from: try SocketAddress(ipAddress: "10.0.0.1", port: 1),
                remoteAdmin: true) == 200)
    }

    /// A request that came through a proxy (one that names itself in `Via`, or says whom it forwards
    /// for in `Forwarded` or `X-Forwarded-For`) is not from this machine, whatever its peer: the
    /// proxy on loopback may be forwarding a remote client. Such a field can only take the operator
    /// endpoints away from a request, never give them. Before, `/admin/revoke` through `proxy`
    /// answered 200.
    @Test func aForwardedRequestIsRefusedTheOperatorEndpoints() async throws {
        let loopback = try SocketAddress(ipAddress: "127.0.0.1", port: 5000)
        for (name, value) in [
            ("Via", "1.1 mpin-workbench-proxy"), ("Forwarded", "for=192.0.2.7"), ("X-Forwarded-For", "192.0.2.7"),
        ] {
            var fields = HTTPFields()
            fields[HTTPFields.Element.Name(name)!] = value
            #expect(await status("/admin/mailbox", from: loopback, headers: fields) == 403, "\(name)")
            #expect(await status("/devicesecurity/admin/state", from: loopback, headers: fields) == 403, "\(name)")
            #expect(await status("/rps/clientSettings", from: loopback, headers: fields) == 200, "\(name)")
            #expect(
                await status("/admin/mailbox", from: loopback, remoteAdmin: true, headers: fields) == 200, "\(name)")
        }
    }

    /// Over a real loopback connection the operator endpoints still answer (the peer is 127.0.0.1).
    @Test func theLoopbackHarnessStillReachesThem() async throws {
        let harness = try await BackendHarness.start()
        #expect(try await harness.send(.get, "/admin/counts").status == 200)
        await harness.stop()
    }
}
