import CurlTransport
import FlowRecording
import Foundation
import ProxyServing
import ReferenceBackend
import SDKSeams
import TestSupport
import Testing

@testable import WorkbenchCLI

/// `proxy` and the backend's operator endpoints: through the proxy (which connects from loopback)
/// `/admin/*` and `/devicesecurity/admin/*` are refused (403), since the proxy marks what it
/// forwards with `Via`; `--allow-admin` forwards without it. `proxy --host` off loopback warns as
/// `serve` does. Before, `POST /admin/revoke` through the proxy answered 200, and `proxy --host
/// 0.0.0.0` said nothing.
@Suite struct ProxyOperatorTests {
    private func status(_ method: String, _ target: String, body: String = "", via: String?) async throws -> Int {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "proxy-operator"))
        defer { Task { await backend.stop() } }
        let proxy = RecordingProxy(
            upstream: backend.baseURL, baseURL: "http://127.0.0.1:1", transport: ProxyCommandTests.curl(),
            header: ProxySession.header(
                baseURL: "http://127.0.0.1:1", name: "admin", script: nil, seed: nil, tool: ScenarioCommandSupport.tool),
            timeout: 30, via: via)
        let headers: HTTPHeaders = body.isEmpty ? [:] : ["Content-Type": "application/json"]
        return await proxy.forward(.init(method: method, target: target, headers: headers, body: Array(body.utf8)))
            .status
    }

    @Test func operatorEndpointsAreRefusedThroughTheProxy() async throws {
        #expect(
            try await status("POST", "/admin/revoke", body: #"{"userId":"eve"}"#, via: RecordingProxy.defaultVia) == 403
        )
        #expect(try await status("GET", "/admin/mailbox", via: RecordingProxy.defaultVia) == 403)
        #expect(try await status("GET", "/devicesecurity/admin/state", via: RecordingProxy.defaultVia) == 403)
        // Spelled otherwise, the path is still the backend's to read: %61 is "a".
        #expect(try await status("GET", "/%61dmin/counts", via: RecordingProxy.defaultVia) == 403)
        // The rest of the backend answers through the proxy as before.
        #expect(try await status("GET", "/rps/clientSettings", via: RecordingProxy.defaultVia) == 200)
    }

    @Test func allowAdminForwardsWithoutTheMark() async throws {
        #expect(try await status("POST", "/admin/revoke", body: #"{"userId":"eve"}"#, via: nil) == 200)
        #expect(
            try ProxyCommand.parse(["--upstream", "http://127.0.0.1:8005", "--out", "f.json", "--allow-admin"])
                .allowAdmin)
        #expect(try !ProxyCommand.parse(["--upstream", "http://127.0.0.1:8005", "--out", "f.json"]).allowAdmin)
    }

    @Test func aHostOffLoopbackWarns() throws {
        for host in ["127.0.0.1", "localhost", "::1"] {
            #expect(
                ExposureWarning.proxy(
                    host: host, upstream: "http://127.0.0.1:8005", out: "f.json", allowAdmin: false) == nil)
        }
        let warning = try #require(
            ExposureWarning.proxy(
                host: "0.0.0.0", upstream: "http://127.0.0.1:8005", out: "f.json", allowAdmin: false))
        #expect(
            warning.hasPrefix(
                "warning: --host 0.0.0.0 is not a loopback address: every client that reaches it is forwarded to http://127.0.0.1:8005"
            ))
        #expect(warning.contains("/admin/* and /devicesecurity/admin/* still answer only this machine"))
        let open = try #require(
            ExposureWarning.proxy(
                host: "192.0.2.1", upstream: "http://127.0.0.1:8005", out: "f.json", allowAdmin: true))
        #expect(open.contains("with --allow-admin, the operator endpoints /admin/*"))
    }
}

/// `replay` of a proxy's cassette (the client's exchanges, no script) says what to run instead:
/// `cassette serve`, `cassette check`, or `proxy --scenario`. Before, it said only that the cassette
/// "carries no script and no scenario named" its file's name.
@Suite(.enabled(if: WorkbenchProcess.path != nil)) struct ProxyCassetteReplayTests {
    @Test func replayingAProxysCassetteSaysWhatToRunInstead() throws {
        let directory = try TemporaryDirectory.make("proxy-replay")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/phone.json"
        let header = ProxySession.header(
            baseURL: "http://127.0.0.1:40001", name: "phone", script: nil, seed: nil, upstream: "http://127.0.0.1:8005",
            tool: ScenarioCommandSupport.tool)
        try CassetteFile.write(header, to: file)
        let run = try WorkbenchProcess.run(["replay", file], seconds: 60)
        #expect(run.status != 0, "\(run)")
        let text = run.stdout + run.stderr
        #expect(text.contains("a proxy's cassette"), "\(run)")
        #expect(text.contains("mpin-workbench cassette serve \(file)"), "\(run)")
        #expect(text.contains("proxy --upstream http://127.0.0.1:8005 --scenario NAME"), "\(run)")
    }
}
