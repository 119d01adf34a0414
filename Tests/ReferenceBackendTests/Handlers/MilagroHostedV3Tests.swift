import Foundation
import MPinCrypto
import MPinSDK
import SDKSeams
import Testing

@testable import ReferenceBackend

/// The `milagro-hosted-v3` profile: each point as the C++ SDK core's recording shows it
/// (`../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json`).
@Suite struct MilagroHostedV3Tests {
    static func start(_ profile: BackendProfile = .milagroHostedV3) async throws -> BackendHarness {
        try await BackendHarness.start(seed: "tests") { $0.profile = profile }
    }

    @Test func clientSettingsAsRecorded() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let answer = try await harness.send(.get, "/rps/clientSettings")
        let settings = answer.json
        #expect(answer.status == 200)
        #expect(
            settings.keys.sorted() == [
                "accessNumberDigits", "accessNumberURL", "accessNumberUseCheckSum", "appID", "authenticateURL", "cSum",
                "certivoxURL",
                "getAccessNumberURL", "mobileAuthenticateURL", "mpinAuthServerURL", "registerURL", "requestOTP",
                "seedValue",
                "setDeviceName", "setupDoneURL", "signatureURL", "timePermitsStorageURL", "timePermitsURL", "useNFC",
                "useWebSocket",
            ])
        let urls = [
            "registerURL": "/rps/user", "signatureURL": "/rps/signature", "certivoxURL": "/dta2/v3/",
            "timePermitsURL": "/rps/timePermit", "timePermitsStorageURL": "/timePermitsStorage",
            "mpinAuthServerURL": "/rps",
            "authenticateURL": "/mpinAuthenticate", "mobileAuthenticateURL": "/rps/authenticate",
            "accessNumberURL": "/rps/accessnumber", "getAccessNumberURL": "/rps/getAccessNumber",
            "setupDoneURL": "/rps/setupDone",
        ]
        for (key, value) in urls { #expect(settings[key] as? String == value, "\(key)") }
        #expect(settings["requestOTP"] as? Bool == false && settings["setDeviceName"] as? Bool == false)
        #expect(settings["useNFC"] as? Bool == false && settings["useWebSocket"] as? Bool == false)
        #expect(settings["accessNumberDigits"] as? Int == 7 && settings["cSum"] as? Int == 1)
        #expect(settings["accessNumberUseCheckSum"] as? Bool == true)
        let seedValue = settings["seedValue"] as? String ?? ""
        #expect(seedValue.count == 200 && Hex.decode(seedValue) != nil)
        // Registration times as recorded ("2016-10-11T14:58:15.183359"), the M-Pin ID's `issued` as the open-source RPS's.
        let registered = try await harness.send(.put, "/rps/user", body: #"{"userId":"al","mobile":1}"#)
        for key in ["expireTime", "nowTime"] {
            let time = registered.string(key)
            #expect(time.count == 26 && Array(time)[10] == "T" && !time.contains(" "), "\(key): \(time)")
        }
        let document = String(decoding: Hex.decode(registered.string("mpinId")) ?? [], as: UTF8.self)
        #expect(document.contains(#""issued": "20"#) && document.contains(#""userID": "al""#), "\(document)")
        // The storage the settings name answers 404, so the SDK asks the hosted D-TA.
        #expect(try await harness.send(.get, "/timePermitsStorage/app/17085/ab").status == 404)
    }

    /// The browser helper's poll: 401 with an empty body (unknown webOTT, no phone yet, a wrong
    /// PIN), 200 `{"authOTT"}` once the phone's login is held, 401 again once the browser has
    /// logged in with it.
    @Test func accessNumberPoll() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        func poll(_ webOTT: String) async throws -> RawResponse {
            try await harness.send(.post, "/rps/accessnumber", body: #"{"webOTT":"\#(webOTT)"}"#)
        }
        func expectNotReady(_ answer: RawResponse, _ comment: Comment) {
            #expect(
                answer.status == 401 && answer.text.isEmpty && answer.header("WWW-Authenticate") == "Authenticate",
                comment)
            #expect(answer.header("Content-Type") == "text/html; charset=UTF-8", comment)
        }
        expectNotReady(try await poll("0123456789abcdef0123456789abcdef"), "unknown webOTT")

        let identity = try await harness.rawRegister("ann")
        let shown = try await harness.send(.post, "/rps/getAccessNumber", body: "")
        let webOTT = shown.string("webOTT")
        expectNotReady(try await poll(webOTT), "before the phone")
        // A wrong PIN for this access number: refused at once, nothing for the browser.
        let wrong = try await harness.rawPasses(identity, pin: 1, wid: shown.string("accessNumber"))
        let refused = try await harness.send(
            .post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(wrong.string("authOTT"))"}}"#)
        #expect(refused.status == 401 && refused.json.keys.sorted() == ["message"] && refused.message == "Wrong PIN.")
        expectNotReady(try await poll(webOTT), "after a wrong PIN")

        let pass2 = try await harness.rawPasses(identity, wid: shown.string("accessNumber"))
        let authOTT = pass2.string("authOTT")
        let phone = Task {
            try await harness.send(.post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(authOTT)"}}"#)
        }
        var ready = try await poll(webOTT)
        let deadline = ContinuousClock.now + .seconds(8)
        while ready.status != 200 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            ready = try await poll(webOTT)
        }
        #expect(ready.status == 200 && ready.json.keys.sorted() == ["authOTT"] && ready.string("authOTT") == authOTT)
        let login = try await harness.send(
            .post, "/mpinAuthenticate", body: #"{"mpinResponse":{"authOTT":"\#(authOTT)"}}"#)
        #expect(
            login.status == 200 && login.json.keys.sorted() == ["someUserData"] && login.header("Set-Cookie") == nil)
        let released = try await phone.value
        #expect(released.status == 200 && released.string("logoutURL") == "/logout")
        let logoutData = try #require(released.json["logoutData"] as? [String: Any])
        expectNotReady(try await poll(webOTT), "after the browser's login")
        let logout = try await harness.send(.post, "/logout", body: BackendHarness.json(logoutData))
        #expect(
            logout.status == 200 && logout.text.isEmpty && logout.header("Content-Type") == "text/html; charset=UTF-8")
    }

    @Test func hostedDTAVersionAndRefusals() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let registered = try await harness.send(.put, "/rps/user", body: #"{"userId":"bob","mobile":1}"#)
        let signature = try await harness.send(
            .get, "/rps/signature/\(registered.string("mpinId"))?regOTT=\(registered.string("regOTT"))")
        let share2 = try await harness.send(.get, "/dta2/v3/clientSecret?" + signature.string("params"))
        #expect(share2.status == 200 && share2.json.keys.sorted() == ["clientSecret", "message", "version"])
        #expect(share2.string("version") == "3" && share2.message == "OK")
        let permit = try await harness.send(.get, "/rps/timePermit/\(registered.string("mpinId"))")
        let permit2 = try await harness.send(
            .get,
            "/dta2/v3/timePermit?hash_mpin_id=\(permit.string("storageId"))&app_id=x&mobile=1"
                + "&signature=\(permit.string("signature"))")
        #expect(permit2.status == 200 && permit2.json.keys.sorted() == ["message", "timePermit", "version"])
        #expect(permit2.string("version") == "3")
        // Its refusals: 400 empty, 401 with the challenge.
        let missing = try await harness.send(.get, "/dta2/v3/timePermit?signature=00")
        #expect(missing.status == 400 && missing.text.isEmpty)
        let forged = try await harness.send(
            .get, "/dta2/v3/timePermit?hash_mpin_id=\(String(repeating: "a", count: 64))&signature=00")
        #expect(forged.status == 401 && forged.header("WWW-Authenticate") == "Authenticate")
        #expect(try await harness.send(.post, "/dta2/v3/timePermit").status == 405)
    }

    @Test func badRequestsHaveEmptyBodies() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let noUser = try await harness.send(.put, "/rps/user", body: #"{"userId":"","mobile":1}"#)
        #expect(
            noUser.status == 400 && noUser.text.isEmpty && noUser.header("Content-Type") == "text/html; charset=UTF-8")
        let noAuthOTT = try await harness.send(.post, "/mpinAuthenticate", body: #"{"mpinResponse":{}}"#)
        #expect(noAuthOTT.status == 400 && noAuthOTT.text.isEmpty)
        let noWebOTT = try await harness.send(.post, "/rps/accessnumber", body: "{}")
        #expect(noWebOTT.status == 400 && noWebOTT.text.isEmpty)
        // The default profile keeps its messages.
        let standard = try await Self.start(.default)
        defer { Task { await standard.stop() } }
        #expect(
            try await standard.send(.put, "/rps/user", body: #"{"userId":"","mobile":1}"#).message == "UserId required")
        #expect(try await standard.send(.post, "/rps/accessnumber", body: "{}").status == 404)
    }

    /// `testAuthenticate2` and `testAuthenticateAN2` as recorded: the demo RPA's 401, 401, 410
    /// with user data; an access number no browser shows is 412 whatever the PIN.
    @Test func refusalsAsRecorded() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let identity = try await harness.rawRegister("cy")
        let statuses = try await [1, 2, 3].asyncMap { _ in try await harness.rawAuthenticate(identity, pin: 1) }
        #expect(statuses.map(\.status) == [401, 401, 410])
        #expect(statuses.allSatisfy { $0.json.keys.sorted() == ["someUserData"] })
        #expect(
            statuses[0].header("WWW-Authenticate") == "Authenticate" && statuses[2].header("WWW-Authenticate") == nil)

        let other = try await harness.rawRegister("di")
        let number = try await harness.send(.post, "/rps/getAccessNumber", body: "").string("accessNumber")
        var digits = Array(number)
        digits[3] = digits[3] == "9" ? "0" : Character(String(digits[3].wholeNumberValue! + 1))
        for pin: Int32 in [1234, 1233] {
            let pass2 = try await harness.rawPasses(other, pin: pin, wid: String(digits))
            let answer = try await harness.send(
                .post, "/rps/authenticate", body: #"{"mpinResponse":{"authOTT":"\#(pass2.string("authOTT"))"}}"#)
            #expect(answer.status == 412 && answer.message == "Invalid or expired access number", "PIN \(pin)")
        }
    }

    @Test func corsAndCacheFields() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        let settings = try await harness.send(.get, "/rps/clientSettings")
        #expect(
            settings.header("Access-Control-Allow-Origin") == "*"
                && settings.header("Access-Control-Allow-Credentials") == "true")
        #expect(settings.header("Access-Control-Allow-Methods") == "GET,PUT,POST,DELETE,OPTIONS")
        #expect(settings.header("Cache-Control") == "no-cache, no-store, max-age=0, must-revalidate")
        #expect(
            settings.header("Pragma") == "no-cache" && settings.header("Expires") == "Sat, 26 Jul 1997 05:00:00 GMT")
        let rpa = try await harness.send(.post, "/logout", body: #"{"userId":"x","sessionToken":"y"}"#)
        #expect(rpa.header("Access-Control-Allow-Methods") == "GET,POST,HEAD,OPTIONS")
        let dta = try await harness.send(.get, "/dta2/v3/timePermit")
        #expect(dta.header("Access-Control-Allow-Methods") == "GET,OPTIONS")
        #expect(try await harness.send(.get, "/timePermitsStorage/a/1/b").header("Access-Control-Allow-Origin") == nil)
        let standard = try await Self.start(.default)
        defer { Task { await standard.stop() } }
        #expect(try await standard.send(.get, "/rps/clientSettings").header("Access-Control-Allow-Origin") == nil)
    }

    @Test func combinationsTheRecordedBackendLacks() async throws {
        for (flavour, activation) in [(BackendFlavour.mfaPlatform, ActivationMode.auto), (.milagro, .code)] {
            let configuration = BackendConfiguration(
                flavour: flavour, activation: activation, profile: .milagroHostedV3)
            #expect(configuration.problem?.contains("milagro-hosted-v3") == true)
            await #expect(throws: ServerStartError.self) { _ = try await ReferenceBackend.start(configuration) }
        }
        #expect(BackendConfiguration(activation: .email, profile: .milagroHostedV3).problem == nil)
    }
}
