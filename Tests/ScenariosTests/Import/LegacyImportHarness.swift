import FlowRecording
import Foundation
import MPinSDK
import OrderedJSON
import ReferenceBackend
import Scenarios

/// The generator of `Fixtures/milagro-sdk-unit-tests.json`: the Milagro SDK core's unit tests
/// (`tests/unit_tests.cpp`, PROTOCOL §9) ported to our SDK and run as the upstream harness ran them,
/// in player-less record mode: one sequential run over ONE SDK instance, every exchange written by
/// `LegacyImportHarnessTransport` in the harness's format, against our embedded backend (seeded,
/// frozen clock) seen under the hosts of a real deployment. The crypto values in the answers are
/// therefore real: the SDK recombines the client-secret and time-permit shares it was given.
///
/// Each test checks its statuses as upstream's `BOOST_CHECK`s do (§9); a call that gives another
/// status stops the run, so a fixture cannot be written from a run that went elsewhere. The browser
/// of the access-number tests is the harness's helper thread: it polls `/rps/accessnumber` and posts
/// the authOTT to the RPA while the phone's login is held, on a task of its own.
///
/// The steps mirror the suite description `Scenarios/milagro-sdk/suites/unit-tests.yaml`, which
/// replays the imported tests.
struct LegacyImportHarness {
    static let seed = "milagro-sdk-unit-tests"
    static let main = LegacyImportHarnessTransport.main
    static let other = LegacyImportHarnessTransport.otherBackend
    static let unreachable = LegacyImportHarnessTransport.unreachableBackend

    let sdk: MPinClient
    let http: LegacyImportHarnessTransport

    /// Runs the suite against a fresh embedded backend and gives the recorded file's bytes.
    static func record() async throws -> [UInt8] {
        let clock = FrozenClock(milliseconds: ScenarioScript.defaultStartTime)
        let backend = try await ReferenceBackend.start(BackendConfiguration(flavour: .milagro, activation: .auto, seed: seed),
                                                       clock: TestBackendClock(clock: clock))
        let http = LegacyImportHarnessTransport(actualOrigin: backend.baseURL, clock: clock)
        let harness = LegacyImportHarness(sdk: MPinClient(transport: http, storage: MemoryStorage(), random: SeededRandomSource(seed: seed),
                                                          clock: clock), http: http)
        do {
            try await harness.run()
        } catch {
            await backend.stop()
            throw error
        }
        await backend.stop()
        return Array(styled(.array(http.written)).utf8) + [0x0A]
    }

    // MARK: - The tests, in upstream order

    func run() async throws {
        try await testNoInit()
        try await testInit()
        try await testBackend()
        try await setBackend()
        try await testUsers1()
        try await testUsers2()
        try await testUsers3()
        try await testUsers4()
        try await testUsers5()
        let testUser = try await testRegister1()
        try await testRegister2()
        try await testRegister3()
        try await testRegister4()
        try await testAuthenticate1(testUser)
        try await testAuthenticate2()
        try await testAuthenticateOTP(testUser)
        try await testAuthenticateAN1(testUser)
        try await testAuthenticateAN2(testUser)
    }

    func testNoInit() async throws {
        try await check("FLOW_ERROR", "testNoInit makeNewUser") { _ = try await sdk.makeNewUser(id: "testUser") }
        try await check("FLOW_ERROR", "testNoInit setBackend") { try await sdk.setBackend(Self.main) }
        try await check("FLOW_ERROR", "testNoInit listAllUsers") { _ = try await sdk.listAllUsers() }
    }

    func testInit() async throws {
        http.setContext("@testInit")
        try await check("OK", "testInit") { try await sdk.initialize(configuration: ["backend": Self.main]) }
    }

    func testBackend() async throws {
        http.setContext("@testBackend")
        try await check("OK", "testBackend other") { try await sdk.testBackend(Self.other) }
        try await check("NETWORK_ERROR", "testBackend unreachable") { try await sdk.testBackend(Self.unreachable) }
    }

    func setBackend() async throws {
        http.setContext("@setBackend")
        try await check("NETWORK_ERROR", "setBackend unreachable") { try await sdk.setBackend(Self.unreachable) }
        try await check("OK", "setBackend other") { try await sdk.setBackend(Self.other) }
        try await check("OK", "setBackend back") { try await sdk.setBackend(Self.main) }
    }

    func testUsers1() async throws {
        try await expectCount(try await sdk.listUsers().count, 0, "testUsers1 users")
        let alice = try await register("alice@example.com", test: "testUsers1")
        try await expectCount(try await sdk.listUsers().count, 1, "testUsers1 users")
        try await sdk.deleteUser(alice)
        try await expectCount(try await sdk.listUsers().count, 0, "testUsers1 users")
    }

    func testUsers2() async throws {
        for index in 0..<10 {
            let id = "user\(index)@example.com"
            let user = try await sdk.makeNewUser(id: id)
            http.setContext("\(id)-@testUsers2")
            try await check("OK", "testUsers2 startRegistration") { try await sdk.startRegistration(user) }
        }
        try await expectCount(try await sdk.listUsers().count, 10, "testUsers2 users")
    }

    func testUsers3() async throws {
        for user in try await sdk.listAllUsers() { try await sdk.deleteUser(user) }
        try await expectCount(try await sdk.listAllUsers().count, 0, "testUsers3 users")
    }

    func testUsers4() async throws {
        let bob = try await register("bob@example.com", test: "testUsers4")
        try await check("OK", "testUsers4 startAuthentication") { try await sdk.startAuthentication(bob) }
        try await check("OK", "testUsers4 finishAuthentication") { _ = try await sdk.finishAuthentication(bob, pin: "1234") }
        guard await !sdk.canLogout(bob), await !sdk.logout(bob) else { throw HarnessError("testUsers4: canLogout/logout should be false") }
    }

    func testUsers5() async throws {
        _ = try await register("carol@example.com", test: "testUsers5")
        try await expectCount(try await sdk.listBackends().count, 1, "testUsers5 backends")
        try await expectCount(try await sdk.listAllUsers().count, 2, "testUsers5 users")
    }

    func testRegister1() async throws -> User {
        try await register("testUser", test: "testRegister1")
    }

    func testRegister2() async throws {
        let dave = try await sdk.makeNewUser(id: "dave@example.com")
        http.setContext("dave@example.com-1234@testRegister2")
        try await check("OK", "testRegister2 startRegistration") { try await sdk.startRegistration(dave) }
        try await check("FLOW_ERROR", "testRegister2 restartRegistration") { try await sdk.restartRegistration(dave) }
        try await check("OK", "testRegister2 confirmRegistration") { try await sdk.confirmRegistration(dave) }
        try await check("OK", "testRegister2 finishRegistration") { try await sdk.finishRegistration(dave, pin: "1234") }
    }

    func testRegister3() async throws {
        let nobody = try await sdk.makeNewUser(id: "")
        http.setContext("-@testRegister3")
        try await check("HTTP_REQUEST_ERROR", "testRegister3 startRegistration") { try await sdk.startRegistration(nobody) }
    }

    func testRegister4() async throws {
        let erin = try await sdk.makeNewUser(id: "erin@example.com")
        http.setContext("erin@example.com-@testRegister4")
        try await check("OK", "testRegister4 startRegistration") { try await sdk.startRegistration(erin) }
        try await check("OK", "testRegister4 confirmRegistration") { try await sdk.confirmRegistration(erin) }
        try await check("PIN_INPUT_CANCELED", "testRegister4 finishRegistration") { try await sdk.finishRegistration(erin, pin: "") }
    }

    func testAuthenticate1(_ user: User) async throws {
        for (pin, mark, wanted) in [("1234", "", "OK"), ("1234", "-ARD", "OK"), ("1111", "", "INCORRECT_PIN"), ("1234", "", "OK")] {
            http.setContext("testUser-\(pin)\(mark)@testAuthenticate1")
            try await check("OK", "testAuthenticate1 startAuthentication") { try await sdk.startAuthentication(user) }
            try await check(wanted, "testAuthenticate1 finishAuthentication") {
                let data = try await sdk.finishAuthentication(user, pin: pin)
                if !mark.isEmpty && data.isEmpty { throw HarnessError("testAuthenticate1: no authResultData") }
            }
        }
    }

    func testAuthenticate2() async throws {
        let frank = try await register("frank@example.com", test: "testAuthenticate2")
        http.setContext("frank@example.com-1111@testAuthenticate2")
        for _ in 0..<3 {
            try await check("OK", "testAuthenticate2 startAuthentication") { try await sdk.startAuthentication(frank) }
            try await check("INCORRECT_PIN", "testAuthenticate2 finishAuthentication") { _ = try await sdk.finishAuthentication(frank, pin: "1111") }
        }
        guard frank.state == .blocked else { throw HarnessError("testAuthenticate2: the user is \(frank.state), not BLOCKED") }
    }

    func testAuthenticateOTP(_ user: User) async throws {
        http.setContext("testUser-1234-OTP@testAuthenticateOTP")
        try await check("OK", "testAuthenticateOTP startAuthentication") { try await sdk.startAuthentication(user) }
        let otp = try await sdk.finishAuthenticationOTP(user, pin: "1234")
        guard otp.status.code.name == "RESPONSE_PARSE_ERROR", !otp.otp.isEmpty else {
            throw HarnessError("testAuthenticateOTP: the OTP \"\(otp.otp)\" has status \(otp.status), not RESPONSE_PARSE_ERROR")
        }
    }

    func testAuthenticateAN1(_ user: User) async throws {
        let issued = try JSONParser.parse(try await http.browser(.post, "/rps/getAccessNumber", body: .object([])).body)
        guard let an = issued["accessNumber"]?.stringValue, let webOTT = issued["webOTT"]?.stringValue else {
            throw HarnessError("testAuthenticateAN1: no access number")
        }
        for _ in 0..<2 { try await poll(webOTT, until: "new") }
        http.setContext("testUser-1234-\(an)@testAuthenticateAN1")
        http.expectHeldLogin()
        let browser = Task { [http] in
            defer { http.browserLoggedIn() }
            try await http.waitForHeldLogin(webOTT: webOTT)
            let seen = try await poll(webOTT, until: "authenticate")
            guard let authOTT = seen["authOTT"]?.stringValue, !authOTT.isEmpty else { throw HarnessError("testAuthenticateAN1: no authOTT") }
            let login = try await http.browser(.post, "/mpinAuthenticate",
                                               body: .object([.init("mpinResponse", .object([.init("authOTT", .string(authOTT))]))]))
            guard login.status == 200 else { throw HarnessError("testAuthenticateAN1: the browser's login got \(login.status)") }
        }
        try await check("OK", "testAuthenticateAN1 startAuthentication") { try await sdk.startAuthentication(user) }
        try await check("OK", "testAuthenticateAN1 finishAuthenticationAN") {
            try await sdk.finishAuthenticationAN(user, pin: "1234", accessNumber: an)
        }
        try await browser.value
        guard await sdk.canLogout(user), await sdk.logout(user) else { throw HarnessError("testAuthenticateAN1: canLogout/logout should be true") }
    }

    func testAuthenticateAN2(_ user: User) async throws {
        let issued = try JSONParser.parse(try await http.browser(.post, "/rps/getAccessNumber", body: .object([])).body)
        guard let an = issued["accessNumber"]?.stringValue, let last = an.last?.wholeNumberValue else {
            throw HarnessError("testAuthenticateAN2: no access number")
        }
        let wrong = String(an.dropLast()) + String((last + 1) % 10)
        http.setContext("testUser-1111-\(wrong)@testAuthenticateAN2")
        try await check("OK", "testAuthenticateAN2 startAuthentication") { try await sdk.startAuthentication(user) }
        try await check("INCORRECT_ACCESS_NUMBER", "testAuthenticateAN2 wrong number") {
            try await sdk.finishAuthenticationAN(user, pin: "1111", accessNumber: wrong)
        }
        http.setContext("testUser-1111-\(an)@testAuthenticateAN2")
        try await check("OK", "testAuthenticateAN2 startAuthentication") { try await sdk.startAuthentication(user) }
        try await check("INCORRECT_PIN", "testAuthenticateAN2 wrong PIN") {
            try await sdk.finishAuthenticationAN(user, pin: "1111", accessNumber: an)
        }
        guard user.state == .registered else { throw HarnessError("testAuthenticateAN2: the user is \(user.state), not REGISTERED") }
    }

    // MARK: - Helpers

    /// Makes and registers a user with PIN 1234.
    func register(_ id: String, test: String) async throws -> User {
        let user = try await sdk.makeNewUser(id: id)
        http.setContext("\(id)-1234@\(test)")
        try await check("OK", "\(test) startRegistration") { try await sdk.startRegistration(user) }
        try await check("OK", "\(test) confirmRegistration") { try await sdk.confirmRegistration(user) }
        try await check("OK", "\(test) finishRegistration") { try await sdk.finishRegistration(user, pin: "1234") }
        guard user.state == .registered else { throw HarnessError("\(test): \(id) is \(user.state), not REGISTERED") }
        return user
    }

    /// One poll of the browser helper, which must show `status`.
    @discardableResult
    func poll(_ webOTT: String, until status: String) async throws -> JSONValue {
        let answer = try JSONParser.parse(try await http.browser(.post, "/rps/accessnumber", body: .object([.init("webOTT", .string(webOTT))])).body)
        guard answer["status"]?.stringValue == status else {
            throw HarnessError("the browser's poll shows \(answer["status"]?.stringValue ?? "nothing"), not \(status)")
        }
        return answer
    }

    func check(_ wanted: String, _ what: String, _ call: () async throws -> Void) async throws {
        var got = "OK"
        do {
            try await call()
        } catch let error as MPinError {
            got = error.status.code.name
        }
        guard got == wanted else { throw HarnessError("\(what): expected \(wanted), got \(got)") }
    }

    func expectCount(_ count: Int, _ wanted: Int, _ what: String) async throws {
        guard count == wanted else { throw HarnessError("\(what): expected \(wanted), got \(count)") }
    }

    // MARK: - The file

    /// The harness's JSON style (JsonCpp's `StyledWriter`): tab indentation, `"name" : value`,
    /// members sorted by name.
    static func styled(_ value: JSONValue, depth: Int = 0) -> String {
        let indent = String(repeating: "\t", count: depth + 1), closing = String(repeating: "\t", count: depth)
        switch value {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { indent + styled($0, depth: depth + 1) }.joined(separator: ",\n") + "\n" + closing + "]"
        case .object(let members) where !members.isEmpty:
            let sorted = members.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            return "{\n" + sorted.map { indent + JSONWriter.quoted($0.name) + " : " + styled($0.value, depth: depth + 1) }
                .joined(separator: ",\n") + "\n" + closing + "}"
        default:
            return JSONWriter.compact(value)
        }
    }
}
