import MPinConsumer
import MPinSDK
import Testing
import WorkbenchTesting

/// The login service against cassettes in `__Cassettes__/LoginServiceTests/`, recorded from the
/// embedded reference backend and replayed offline (CI sets `CI`, so a missing one fails there).
@Suite struct LoginServiceTests {
    /// The service on the running test's cassette session.
    private func service() throws -> LoginService {
        let session = try #require(CassetteSession.current)
        return LoginService(backend: session.backendURL, client: session.makeClient())
    }

    @Test(.cassette("enrol-and-log-in"))
    func enrolAndLogIn() async throws {
        let login = try service()
        try await login.start()
        try await login.enrol(email: "alice@example.com", pin: "1234")
        let outcome = try await login.logIn(email: "alice@example.com", pin: "1234")
        guard case .loggedIn(let answer) = outcome else {
            Issue.record("expected a login, got \(outcome)")
            return
        }
        #expect(answer.contains("alice@example.com"))
    }

    @Test(.cassette("wrong-pin-then-right"))
    func aWrongPINCanBeRetried() async throws {
        let login = try service()
        try await login.start()
        try await login.enrol(email: "bob@example.com", pin: "2468")
        #expect(try await login.logIn(email: "bob@example.com", pin: "1357") == .wrongPIN)
        #expect(try await login.logIn(email: "bob@example.com", pin: "2468") != .wrongPIN)
    }

    @Test(.cassette("three-wrong-pins"))
    func threeWrongPINsBlockTheUser() async throws {
        let login = try service()
        try await login.start()
        try await login.enrol(email: "carol@example.com", pin: "1111")
        #expect(try await login.logIn(email: "carol@example.com", pin: "2222") == .wrongPIN)
        #expect(try await login.logIn(email: "carol@example.com", pin: "3333") == .wrongPIN)
        #expect(try await login.logIn(email: "carol@example.com", pin: "4444") == .blocked)
    }

    @Test func anUnknownUserIsAFailureBeforeAnyRequest() async throws {
        try await withCassette("unknown-user") { session in
            let login = LoginService(backend: session.backendURL, client: session.makeClient())
            try await login.start()
            await #expect(throws: LoginService.Failure.self) {
                try await login.logIn(email: "nobody@example.com", pin: "0000")
            }
        }
    }
}
