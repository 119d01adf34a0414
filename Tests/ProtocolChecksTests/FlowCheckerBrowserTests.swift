import FlowRecording
import SDKSeams
import Testing

@testable import ProtocolChecks

/// A browser client's traffic (docs/protocol.md §13): its CORS preflight is the browser's, passes
/// only when answered 2xx with the page's origin allowed, and fails otherwise with what was seen; the
/// same request again after a 408 is noted as a resend. Before, a preflight was the SDK's, its 405
/// passed every check, and a resend read as a second login with no note.
@Suite struct FlowCheckerBrowserTests {
    static let page = "http://127.0.0.1:8080"

    static func preflight(status: Int?, allowOrigin: String?) -> CassetteEvent.HTTPExchange {
        let request = CassetteEvent.HTTPExchange.Request(
            method: "OPTIONS", url: "http://127.0.0.1:8005/rps/user",
            headers: ["Origin": page, "Access-Control-Request-Method": "PUT"])
        guard let status else { return .init(request: request, error: .init(kind: "connect", message: "refused")) }
        var headers = HTTPHeaders()
        if let allowOrigin { headers = ["Access-Control-Allow-Origin": allowOrigin] }
        return .init(request: request, response: .init(status: status, headers: headers))
    }

    static func preflightFinding(_ exchange: CassetteEvent.HTTPExchange) -> FlowFinding? {
        var checker = FlowChecker()
        return checker.check(exchange, index: 0).findings.first { $0.code == "preflight" }
    }

    @Test func anAllowedPreflightPasses() throws {
        for origin in ["*", Self.page] {
            let finding = try #require(Self.preflightFinding(Self.preflight(status: 200, allowOrigin: origin)))
            #expect(finding.passed, "\(finding.message)")
        }
        var checker = FlowChecker()
        #expect(checker.check(Self.preflight(status: 200, allowOrigin: "*"), index: 0).actor == .browser)
    }

    @Test func aRefusedPreflightFailsSayingWhatItGot() throws {
        let refused = try #require(Self.preflightFinding(Self.preflight(status: 405, allowOrigin: nil)))
        #expect(refused.level == .failure && refused.message.contains("answered 405"), "\(refused.message)")
        let bare = try #require(Self.preflightFinding(Self.preflight(status: 200, allowOrigin: nil)))
        #expect(bare.level == .failure && bare.message.contains("no Access-Control-Allow-Origin"), "\(bare.message)")
        let other = try #require(Self.preflightFinding(Self.preflight(status: 204, allowOrigin: "http://127.0.0.1:9")))
        #expect(other.level == .failure && other.message.contains("http://127.0.0.1:9"), "\(other.message)")
        let none = try #require(Self.preflightFinding(Self.preflight(status: nil, allowOrigin: nil)))
        #expect(none.level == .failure && none.message.contains("no answer"), "\(none.message)")
    }

    @Test func theSameRequestAfterA408IsAResend() {
        let login = CassetteEvent.HTTPExchange.Request(
            method: "POST", url: "http://127.0.0.1:8005/mpinAuthenticate",
            body: Array(#"{"mpinResponse":{"authOTT":"ab"}}"#.utf8))
        var checker = FlowChecker()
        checker.check(.init(request: login, response: .init(status: 408)), index: 3)
        let again = checker.check(.init(request: login, response: .init(status: 200)), index: 4)
        let note = again.findings.first { $0.code == "resend" }
        #expect(note?.level == .note && note?.message.contains("event 3") == true, "\(again.findings)")
        // Not after an answer that was not a 408, nor after no answer (a client's own retry).
        var fresh = FlowChecker()
        fresh.check(.init(request: login, response: .init(status: 401)), index: 0)
        #expect(
            !fresh.check(.init(request: login, response: .init(status: 200)), index: 1).findings.contains {
                $0.code == "resend"
            })
        var retried = FlowChecker()
        retried.check(.init(request: login, error: .init(kind: "connect", message: "refused")), index: 0)
        #expect(
            !retried.check(.init(request: login, response: .init(status: 200)), index: 1).findings.contains {
                $0.code == "resend"
            })
    }
}
