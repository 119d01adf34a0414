import Foundation
import MPinCrypto
import SDKSeams
import Testing

@testable import ReferenceBackend

/// Every endpoint with bad input: always a 4xx with a JSON message, never a crash or a hang.
@Suite struct BadInputTests {
    /// A point that is not on the curve: x = 1, y = 1 (1 ≠ 1 + 2).
    static let offCurve = "04" + String(repeating: "00", count: 31) + "01" + String(repeating: "00", count: 31) + "01"

    struct Case: CustomTestStringConvertible, Sendable {
        var method: HTTPMethod
        var path: String
        var body: String?
        var status: Int
        var testDescription: String { "\(method.rawValue) \(path) \(body?.prefix(60) ?? "") → \(status)" }
    }

    /// Bodies that no JSON endpoint accepts.
    static let malformedBodies: [(String, Int)] = [
        (#"{"userId":"#, 400), ("[1,2]", 400), ("", 400), ("not json", 400), ("\u{FF}\u{FE}", 400),
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), 400),
        ("{\"a\":" + String(repeating: "{\"a\":", count: 40) + "1" + String(repeating: "}", count: 41), 400),
    ]

    static let jsonEndpoints: [(HTTPMethod, String)] = [
        (.put, "/rps/user"), (.post, "/rps/pass1"), (.post, "/rps/pass2"), (.post, "/rps/authenticate"),
        (.post, "/rps/access"), (.post, "/rps/codeStatus"), (.post, "/mpinAuthenticate"), (.post, "/logout"),
        (.post, "/admin/revoke"), (.post, "/admin/restore"),
    ]

    @Test func malformedJSONEverywhere() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        for (method, path) in Self.jsonEndpoints {
            for (body, status) in Self.malformedBodies {
                let answer = try await harness.send(method, path, body: body)
                #expect(answer.status == status, "\(method.rawValue) \(path) with \(body.prefix(20)): \(answer.text)")
                #expect(!answer.message.isEmpty, "\(method.rawValue) \(path): no JSON message in \(answer.text)")
            }
        }
    }

    /// Endpoints whose body may be empty still refuse a malformed one.
    @Test func malformedOptionalBodies() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        for path in ["/rps/getAccessNumber", "/rps/getQrUrl"] {
            #expect(try await harness.send(.post, path, body: "").status == 200)
            for (body, status) in Self.malformedBodies where !body.isEmpty {
                let answer = try await harness.send(.post, path, body: body)
                #expect(answer.status == status && !answer.message.isEmpty, "\(path) with \(body.prefix(20))")
            }
        }
        let platform = try await BackendHarness.start(flavour: .mfaPlatform, activation: .code)
        defer { Task { await platform.stop() } }
        for (path, body) in [
            ("/authorize?client_id=a&redirect_uri=b&response_type=code", "[1]"), ("/token", "{"),
            ("/activationCode", "{\"userId\":1}"), ("/rps/access", "nope"),
        ] {
            let answer = try await platform.send(.post, path, body: body)
            #expect(answer.status == 400 && !answer.message.isEmpty, "\(path)")
        }
    }

    @Test func hugeBodiesAre413() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let huge = #"{"userId":""# + String(repeating: "a", count: 200_000) + #""}"#
        for (method, path) in Self.jsonEndpoints {
            let answer = try await harness.send(method, path, body: huge)
            #expect(answer.status == 413, "\(path): \(answer.status)")
            #expect(answer.message.contains("larger"))
        }
        // The server is still there.
        #expect(try await harness.send(.get, "/rps/clientSettings").status == 200)
    }

    @Test func fieldsMissingMistypedOrMalformed() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("victor")
        let id = identity.mpinID
        let u = try await harness.validU(identity)
        let cases: [Case] = [
            Case(method: .put, path: "/rps/user", body: "{}", status: 400),
            Case(method: .put, path: "/rps/user", body: #"{"userId":""}"#, status: 400),
            Case(method: .put, path: "/rps/user", body: #"{"userId":42}"#, status: 400),
            Case(
                method: .put, path: "/rps/user", body: #"{"userId":"\#(String(repeating: "x", count: 300))"}"#,
                status: 400),
            Case(method: .put, path: "/rps/user", body: #"{"userId":"w","deviceName":7}"#, status: 400),
            Case(method: .put, path: "/rps/user/zz", body: #"{"userId":"w","regOTT":"00"}"#, status: 400),
            Case(method: .put, path: "/rps/user/\(id)", body: #"{"userId":"victor"}"#, status: 400),
            Case(method: .put, path: "/rps/user/\(id)", body: #"{"userId":"victor","regOTT":"00"}"#, status: 400),
            Case(method: .get, path: "/rps/signature/zz?regOTT=00", status: 400),
            Case(method: .get, path: "/rps/signature/\(id)", status: 400),
            Case(method: .get, path: "/rps/signature/abcd?regOTT=00", status: 400),
            Case(method: .get, path: "/rps/timePermit/zz", status: 400),
            Case(method: .get, path: "/rps/timePermit/abcd", status: 404),
            Case(method: .post, path: "/rps/pass1", body: #"{"mpin_id":"\#(id)","UT":"\#(u)"}"#, status: 400),
            Case(method: .post, path: "/rps/pass1", body: #"{"mpin_id":"\#(id)","U":"xyz","UT":"\#(u)"}"#, status: 400),
            Case(
                method: .post, path: "/rps/pass1", body: #"{"mpin_id":"\#(id)","U":"0400","UT":"\#(u)"}"#, status: 400),
            Case(
                method: .post, path: "/rps/pass1", body: #"{"mpin_id":"\#(id)","U":"\#(Self.offCurve)","UT":"\#(u)"}"#,
                status: 400),
            Case(method: .post, path: "/rps/pass1", body: #"{"mpin_id":"\#(id)","U":"\#(u)","UT":""}"#, status: 400),
            Case(
                method: .post, path: "/rps/pass1", body: #"{"mpin_id":"\#(id)","U":"\#(u)","UT":"\#(Self.offCurve)"}"#,
                status: 400),
            Case(method: .post, path: "/rps/pass1", body: #"{"mpin_id":"abcd","U":"\#(u)","UT":"\#(u)"}"#, status: 403),
            Case(method: .post, path: "/rps/pass1", body: #"{"mpin_id":7,"U":"\#(u)","UT":"\#(u)"}"#, status: 400),
            Case(method: .post, path: "/rps/pass2", body: #"{"mpin_id":"\#(id)","V":"\#(u)","WID":"0"}"#, status: 403),
            Case(
                method: .post, path: "/rps/pass2", body: #"{"mpin_id":"\#(id)","V":"\#(Self.offCurve)","WID":"0"}"#,
                status: 400),
            Case(method: .post, path: "/rps/pass2", body: #"{"mpin_id":"\#(id)","V":"\#(u)"}"#, status: 400),
            Case(
                method: .post, path: "/rps/pass2", body: #"{"mpin_id":"\#(id)","V":"\#(u)00","WID":"0"}"#, status: 400),
            Case(method: .post, path: "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"00"}}"#, status: 412),
            Case(method: .post, path: "/rps/authenticate", body: #"{"mpinResponse":"x"}"#, status: 400),
            Case(method: .post, path: "/rps/authenticate", body: #"{"authOTT":"00"}"#, status: 400),
            Case(method: .post, path: "/mpinAuthenticate", body: #"{"mpinResponse":{"authOTT":"00"}}"#, status: 408),
            Case(method: .post, path: "/mpinAuthenticate", body: #"{"mpinResponse":{}}"#, status: 400),
            Case(method: .post, path: "/rps/access", body: #"{"webOTT":"00"}"#, status: 404),
            Case(method: .post, path: "/rps/access", body: "{}", status: 400),
            Case(method: .post, path: "/rps/codeStatus", body: #"{"status":"wid","wid":"nope"}"#, status: 404),
            Case(method: .post, path: "/rps/codeStatus", body: #"{"status":"dance","wid":"nope"}"#, status: 400),
            Case(method: .post, path: "/rps/codeStatus", body: #"{"status":"user","wid":"nope"}"#, status: 400),
            Case(method: .post, path: "/logout", body: #"{"userId":"victor","sessionToken":"00"}"#, status: 400),
            Case(method: .post, path: "/logout", body: #"{"userId":"victor"}"#, status: 400),
            Case(method: .post, path: "/admin/revoke", body: "{}", status: 400),
            Case(method: .get, path: "/mpinActivate?i=\(id)&s=00", status: 401),
            Case(method: .get, path: "/mpinActivate", status: 400),
            Case(method: .post, path: "/activationCode", body: #"{"userId":"v"}"#, status: 404),
            Case(method: .get, path: "/dta2/clientSecret", status: 400),
            Case(
                method: .get,
                path:
                    "/dta2/clientSecret?app_id=a&expires=2030-01-01T00:00:00Z&hash_mpin_id=00&hash_user_id=&signature=00",
                status: 400),
            Case(
                method: .get,
                path:
                    "/dta2/clientSecret?app_id=a&expires=soon&hash_mpin_id=\(String(repeating: "0", count: 64))&hash_user_id=&signature=00",
                status: 400),
            Case(
                method: .get,
                path:
                    "/dta2/clientSecret?app_id=a&expires=2030-01-01T00:00:00Z&hash_mpin_id=\(String(repeating: "0", count: 64))&hash_user_id=&signature=00",
                status: 401),
            Case(
                method: .get, path: "/dta1/timePermit?hash_mpin_id=\(String(repeating: "0", count: 64))&signature=00",
                status: 401),
            Case(
                method: .get, path: "/dta1/timePermits?hash_mpin_id=\(String(repeating: "0", count: 64))", status: 400),
            Case(
                method: .get, path: "/dta1/serverSecret?app_id=a&expires=2030-01-01T00:00:00Z&signature=00", status: 401
            ),
            Case(method: .get, path: "/dta3/clientSecret", status: 404),
            Case(method: .get, path: "/dta1/masterSecret", status: 404),
            Case(method: .get, path: "/rps/clientSettings?x=%ZZ", status: 400),
            Case(method: .get, path: "/nowhere", status: 404),
            Case(method: .post, path: "/rps/clientSettings", body: "{}", status: 405),
            Case(method: .get, path: "/rps/pass1", status: 405),
            Case(method: .post, path: "/authorize", body: "{}", status: 404),
        ]
        for test in cases {
            let answer = try await harness.send(test.method, test.path, body: test.body)
            #expect(answer.status == test.status, "\(test.testDescription): got \(answer.status) \(answer.text)")
            #expect(!answer.message.isEmpty, "\(test.testDescription): no JSON message in \(answer.text)")
        }
        // After all that, the identity still authenticates.
        #expect(try await harness.rawAuthenticate(identity).status == 200)
    }

    @Test func wrongRegOTTCancelsTheRegistration() async throws {
        let harness = try await BackendHarness.start()
        defer { Task { await harness.stop() } }
        let registered = try await harness.send(.put, "/rps/user", body: #"{"userId":"walter"}"#)
        let id = registered.string("mpinId")
        #expect(try await harness.send(.get, "/rps/signature/\(id)?regOTT=00").status == 400)
        #expect(
            try await harness.send(.get, "/rps/signature/\(id)?regOTT=\(registered.string("regOTT"))").status == 400)
    }

    @Test func platformEndpointsNeedTheClientID() async throws {
        let harness = try await BackendHarness.start(flavour: .mfaPlatform, clientID: "app-1")
        defer { Task { await harness.stop() } }
        for (method, path, body) in [
            (HTTPMethod.get, "/rps/clientSettings", nil), (.put, "/rps/user", #"{"userId":"x"}"#),
            (.get, "/rps/signature/00?regOTT=00", nil), (.post, "/rps/pass1", "{}"), (.post, "/rps/pass2", "{}"),
            (.post, "/rps/authenticate", "{}"), (.post, "/rps/codeStatus", "{}"),
        ] as [(HTTPMethod, String, String?)] {
            let missing = try await harness.send(method, path, body: body)
            #expect(missing.status == 406 && missing.message == "Cannot parse application for User-Agent ", "\(path)")
            let wrong = try await harness.send(method, path, body: body, headers: ["X-MIRACL-CID": "other"])
            #expect(wrong.status == 406, "\(path)")
        }
        let cid: HTTPHeaders = ["X-MIRACL-CID": "app-1"]
        #expect(try await harness.send(.get, "/rps/clientSettings", headers: cid).status == 200)
        let noAccessCode = try await harness.send(.put, "/rps/user", body: #"{"userId":"x"}"#, headers: cid)
        #expect(noAccessCode.status == 400 && noAccessCode.message == "Invalid access id")
        #expect(try await harness.send(.get, "/rps/timePermit/00", headers: cid).status == 404)
        // The platform's /mpinAuthenticate only picks up held access-code logins for the browser.
        #expect(
            try await harness.send(.post, "/mpinAuthenticate", body: #"{"mpinResponse":{"authOTT":"00"}}"#).status
                == 408)
        #expect(try await harness.send(.post, "/authorize?redirect_uri=x&response_type=code", body: "{}").status == 400)
        #expect(
            try await harness.send(.post, "/authorize?client_id=app-1&response_type=code", body: "{}").status == 400)
        #expect(
            try await harness.send(.post, "/authorize?client_id=app-1&redirect_uri=x&response_type=token", body: "{}")
                .status == 400)
        #expect(
            try await harness.send(.post, "/authorize?client_id=app-2&redirect_uri=x&response_type=code", body: "{}")
                .status == 400)
        #expect(try await harness.send(.post, "/token", body: #"{"code":"00"}"#).status == 400)
        #expect(try await harness.send(.post, "/token", body: "[]").status == 400)
    }

    @Test func codeModeRefusals() async throws {
        let harness = try await BackendHarness.start(activation: .code)
        defer { Task { await harness.stop() } }
        #expect(try await harness.send(.post, "/activationCode", body: "{}").status == 400)
        #expect(try await harness.send(.put, "/rps/user", body: #"{"userId":"x"}"#).status == 403)
        #expect(try await harness.send(.put, "/rps/user", body: #"{"userId":"x","activateCode":"1"}"#).status == 403)
        #expect(try await harness.send(.put, "/rps/user", body: #"{"userId":"x","activateCode":5}"#).status == 400)
    }
}

extension BackendHarness {
    /// A valid G1 point (the identity's U for some x), for filling fields that must be points.
    func validU(_ identity: RawIdentity) async throws -> String {
        var system = SystemRandomNumberGenerator()
        let one = try #require(
            mpin.client1(
                date: 0, id: identity.id, x: mpin.randomScalar(using: &system), pin: 1234,
                token: identity.token, permit: nil))
        return Hex.encode(one.u)
    }
}
