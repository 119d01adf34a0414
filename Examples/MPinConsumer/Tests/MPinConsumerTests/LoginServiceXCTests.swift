import MPinConsumer
import WorkbenchTesting
import XCTest

/// The same service from XCTest, with `withCassette`.
final class LoginServiceXCTests: XCTestCase {
    func testEnrolAndLogIn() async throws {
        try await withCassette("xctest-enrol-and-log-in") { session in
            let login = LoginService(backend: session.backendURL, client: session.makeClient())
            try await login.start()
            try await login.enrol(email: "dave@example.com", pin: "9876")
            let outcome = try await login.logIn(email: "dave@example.com", pin: "9876")
            guard case .loggedIn = outcome else { return XCTFail("expected a login, got \(outcome)") }
        }
    }
}
