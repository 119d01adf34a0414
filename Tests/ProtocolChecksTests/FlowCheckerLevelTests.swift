import FlowRecording
import Foundation
import SDKSeams
import TestSupport
import Testing

@testable import ProtocolChecks

/// Levels of the findings (what a test provokes and a server may answer is a note or a warning; a
/// failure only for what is certainly wrong), the request kinds of the servers' route tables, who
/// sent a request, the origins the settings name that no request went to, redacted values.
@Suite struct FlowCheckerLevelTests {
    static let origin = "http://127.0.0.1:8005"

    static func exchange(
        _ method: String, _ path: String, _ body: String = "", status: Int?, _ response: String = "",
        origin: String = origin
    ) -> CassetteEvent.HTTPExchange {
        var exchange = CassetteEvent.HTTPExchange(
            request: .init(method: method, url: origin + path, body: Array(body.utf8)))
        if let status {
            exchange.response = .init(status: status, body: Array(response.utf8))
        } else {
            exchange.error = .init(kind: "connectionRefused", message: "refused")
        }
        return exchange
    }

    static let x = String(repeating: "1", count: 64), y = String(repeating: "2", count: 64)
    /// A point on the curve without its `04`: U of the first pass 1 of the committed `authenticate` recording.
    static let onCurve: String = {
        let cassette = try? CassetteFile.read(RepoPaths.recordings + "/authenticate.json")
        for (_, exchange) in cassette?.httpExchanges ?? [] where exchange.request.url.hasSuffix("/rps/pass1") {
            let text = String(decoding: exchange.request.body, as: UTF8.self)
            guard let start = text.range(of: #""U" : "04"#) else { continue }
            return String(text[start.upperBound...].prefix(128))
        }
        return ""
    }()
    /// A pass 1 with U off the curve (and UT empty).
    static let badPass1 = #"{"pass":1,"mpin_id":"7b7d","UT":"","U":"04\#(x)\#(y)"}"#

    /// The findings other than passed checks of the last exchange, after the settings and `exchanges`.
    static func raised(_ exchanges: [CassetteEvent.HTTPExchange], settings: String = #"{"usePermits":false}"#)
        -> [FlowFinding]
    {
        var checker = FlowChecker()
        checker.check(exchange("GET", "/rps/clientSettings", status: 200, settings), index: 0)
        var last: ExchangeReport?
        for (number, exchange) in exchanges.enumerated() { last = checker.check(exchange, index: number + 1) }
        return last?.raised ?? []
    }

    static func levels(_ findings: [FlowFinding]) -> [String] { findings.map { "\($0.level.rawValue) \($0.code)" } }

    @Test func aMalformedRequestTakesItsLevelFromTheAnswer() {
        #expect(
            Self.levels(Self.raised([Self.exchange("POST", "/rps/pass1", Self.badPass1, status: 403)]))
                == ["note point-off-curve", "note status-4xx"])
        #expect(
            Self.levels(Self.raised([Self.exchange("POST", "/rps/pass1", Self.badPass1, status: 500)]))
                == ["warning point-off-curve", "warning status-5xx"])
        #expect(
            Self.levels(
                Self.raised([Self.exchange("POST", "/rps/pass1", Self.badPass1, status: 200, #"{"y":"\#(Self.x)"}"#)]))
                == ["failure point-off-curve"])
        #expect(
            Self.levels(Self.raised([Self.exchange("POST", "/rps/pass1", Self.badPass1, status: nil)]))
                == ["warning point-off-curve", "warning no-response"])
    }

    @Test func statusesOutsideTheTableAreNotesOrWarnings() {
        // 400 for an empty userId: the SDK's HTTP_REQUEST_ERROR (docs/protocol.md §3.1).
        #expect(
            Self.levels(Self.raised([Self.exchange("PUT", "/rps/user", #"{"userId":"","mobile":1}"#, status: 400)]))
                == ["note status-4xx"])
        #expect(
            Self.levels(Self.raised([Self.exchange("PUT", "/rps/user", #"{"userId":"a","mobile":1}"#, status: 302)]))
                == ["warning status-3xx"])
        #expect(
            Self.levels(Self.raised([Self.exchange("GET", "/rps/clientSettings", status: 204)])) == [
                "failure status-2xx"
            ])
        // The older backend's 401 to a browser poll until the phone's login is ready.
        #expect(
            Self.levels(Self.raised([Self.exchange("POST", "/rps/accessnumber", #"{"webOTT":"ab"}"#, status: 401)]))
                == ["note status-4xx"])
        // A status the table lists passes.
        #expect(
            Self.raised([Self.exchange("POST", "/rps/authenticate", #"{"mpinResponse":{"authOTT":"ab"}}"#, status: 412)]
            )
            .allSatisfy { $0.category != .status })
    }

    @Test func aTamperedAccessNumberInPass2IsANote() {
        let pass2 = #"{"pass":2,"OTP":false,"WID":"6419791","V":"04\#(Self.x)\#(Self.y)","mpin_id":"7b7d"}"#
        let settings = #"{"usePermits":false,"cSum":1,"accessNumberUseCheckSum":true,"accessNumberDigits":7}"#
        let raised = Self.raised(
            [
                Self.exchange(
                    "POST", "/rps/pass1", Self.badPass1.replacing("\(Self.x)\(Self.y)", with: Self.onCurve),
                    status: 200,
                    #"{"y":"\#(Self.x)"}"#),
                Self.exchange(
                    "POST", "/rps/pass2", pass2, status: 200, #"{"authOTT":"\#(String(repeating: "a", count: 32))"}"#),
            ],
            settings: settings)
        #expect(Self.levels(raised) == ["note point-off-curve", "note check-digit"], "\(raised)")
        #expect(raised.last?.message.contains("the server's answer to it is what counts") == true)
    }

    @Test func malformedValuesInA200AnswerAreFailures() {
        let raised = Self.raised([
            Self.exchange(
                "POST", "/rps/pass1", Self.badPass1.replacing("\(Self.x)\(Self.y)", with: Self.onCurve),
                status: 200, #"{"y":"XYZ"}"#)
        ])
        #expect(Self.levels(raised) == ["failure hex"])
    }

    @Test(
        "the servers' routes are known request kinds",
        arguments: [
            ("POST", "/rps/accessnumber", RequestKind.accessNumberPoll), ("POST", "/rps/access", .accessNumberPoll),
            ("POST", "/rps/getAccessNumber", .getAccessNumber), ("POST", "/rps/getQrUrl", .getQrURL),
            ("POST", "/rps/codeStatus", .codeStatus),
            ("POST", "/rps/setupDone/7b7d", .setupDone), ("POST", "/rps/authenticate", .authenticate),
            ("POST", "/logout", .logout),
            ("GET", "/logout", .auxiliary), ("POST", "/mpinAuthenticate", .authenticate),
            ("POST", "/loginResult", .serverCall),
            ("POST", "/authenticate", .serverCall), ("POST", "/user/7b7d", .serverCall),
            ("POST", "/mpinVerify", .serverCall),
            ("GET", "/mpinPermitUser", .serverCall), ("GET", "/serverSecret", .serverCall),
            ("GET", "/timePermits", .serverCall),
            ("GET", "/clientSecret", .clientSecret2), ("GET", "/timePermit", .timePermit2),
            ("GET", "/tpstorage/app/20784/ab", .timePermitStorage),
            ("GET", "/dta2/clientSecret", .clientSecret2), ("GET", "/service", .serviceDetails),
            ("POST", "/authorize", .accessCode),
            ("GET", "/status", .auxiliary), ("GET", "/rps/mobileConfig", .auxiliary), ("GET", "/", .auxiliary),
            ("GET", "/mpinActivate", .auxiliary),
            ("POST", "/token", .auxiliary), ("GET", "/manage/getStackInfo", .auxiliary), ("GET", "/rps/nope", .other),
            ("GET", "/nope", .other),
            ("GET", "/rps/user", .other),
        ])
    func knownKinds(method: String, path: String, kind: RequestKind) {
        // Against the open-source server's settings (absolute URLs, D-TA 2 on its own origin) ...
        var checker = FlowChecker()
        let settings =
            #"{"mpinAuthServerURL":"http://h:1/rps","certivoxURL":"http://h:2/","timePermitsStorageURL":"http://h:2/tpstorage","#
            + #""registerURL":"http://h:1/rps/user","signatureURL":"http://h:1/rps/signature","timePermitsURL":"http://h:1/rps/timePermit","#
            + #""authenticateURL":"/mpinAuthenticate","mobileAuthenticateURL":"http://h:1/rps/authenticate","accessNumberURL":"http://h:1/rps/access"}"#
        checker.check(Self.exchange("GET", "/rps/clientSettings", status: 200, settings), index: 0)
        #expect(checker.kind(method: method, path: path) == kind)
        // ... and before any settings.
        if path != "/tpstorage/app/20784/ab" { #expect(FlowChecker().kind(method: method, path: path) == kind) }
    }

    @Test func theActorIsToldFromTheRequest() {
        let checker = FlowChecker()
        let browser = Array(#"{"mpinResponse": {"authOTT": "ab"}}"#.utf8)
        let sdk22 = Array(#"{"mpinResponse": {"version": "0.3", "authOTT": "ab", "pass": 2}}"#.utf8)
        let next = Array(#"{"mpinResponse": {"authOTT": "ab"}, "authzRequest": false}"#.utf8)
        #expect(checker.actor(method: "POST", path: "/mpinAuthenticate", body: browser) == .browser)
        #expect(checker.actor(method: "POST", path: "/mpinAuthenticate", body: sdk22) == .sdk)
        #expect(checker.actor(method: "POST", path: "/rps/authenticate", body: next) == .sdk)
        #expect(
            checker.actor(method: "POST", path: "/rps/accessnumber", body: Array(#"{"webOTT":"ab"}"#.utf8)) == .browser)
        #expect(checker.actor(method: "POST", path: "/rps/access", body: []) == .browser)
        #expect(checker.actor(method: "POST", path: "/rps/getQrUrl", body: []) == .browser)
        #expect(checker.actor(method: "GET", path: "/session", body: []) == .browser)
        #expect(checker.actor(method: "POST", path: "/rps/pass1", body: []) == .sdk)
        #expect(checker.actor(method: "POST", path: "/admin/revoke", body: []) == .admin)
        // A recorded actor other than the request's is a note.
        var recorded = FlowChecker()
        let report = recorded.check(
            Self.exchange("POST", "/mpinAuthenticate", String(decoding: browser, as: UTF8.self), status: 401), index: 0,
            recordedActor: .sdk)
        #expect(report.raised.contains { $0.code == "actor" && $0.level == .note }, "\(report.text)")
    }

    @Test func originsTheSettingsNameThatNoRequestWentToAreListed() {
        var checker = FlowChecker()
        let settings =
            #"{"certivoxURL":"http://127.0.0.1:8001/","registerURL":"/rps/user","signatureURL":"/rps/signature","#
            + #""mpinAuthServerURL":"/rps","authenticateURL":"/mpinAuthenticate","mobileAuthenticateURL":"/rps/authenticate","usePermits":false}"#
        checker.check(Self.exchange("GET", "/rps/clientSettings", status: 200, settings), index: 0)
        let share = #"{"clientSecretShare":"04\#(Self.x)\#(Self.y)","params":"a=b"}"#
        checker.check(Self.exchange("GET", "/rps/signature/7b7d?regOTT=ab", status: 200, share), index: 1)
        checker.check(Self.exchange("GET", "/rps/signature/7b7d?regOTT=ab", status: 200, share), index: 2)
        let unseen = checker.summary.unseenOrigins
        #expect(
            unseen == [
                .init(
                    origin: "http://127.0.0.1:8001", settings: ["certivoxURL"], settingsIndex: 0, certainExchanges: 2,
                    possibleExchanges: 0)
            ])
        #expect(
            checker.summary.findingLines.contains {
                $0.hasPrefix(
                    "warning [0] client settings: http://127.0.0.1:8001 (certivoxURL): no exchange with it was seen; missing: 2 exchanges the client made with it"
                )
            }, "\(checker.summary.text)")
        // Once a request went there, nothing is said.
        checker.check(
            Self.exchange(
                "GET", "/clientSecret?hash_mpin_id=" + String(repeating: "a", count: 64), status: 200,
                #"{"clientSecret":"04\#(Self.x)\#(Self.y)"}"#, origin: "http://127.0.0.1:8001"), index: 3)
        #expect(checker.summary.unseenOrigins.isEmpty)
    }

    @Test func placeholdersAreNotChecked() {
        let raised = Self.raised([
            Self.exchange(
                "GET", "/rps/signature/7b7d?regOTT=ab", status: 200,
                #"{"clientSecretShare":"{{share1}}","params":"a=b"}"#),
            Self.exchange("POST", "/rps/pass1", "{{elided}}", status: 200, #"{"y":"{{y}}"}"#),
        ])
        #expect(raised.isEmpty, "\(raised)")
    }
}
