import MPinSDK
import Testing
import WorkbenchTesting

@Test(.cassette("first-login"))
func firstLogin() async throws {
    let session = try #require(CassetteSession.current)
    let backendURL: String = session.backendURL  // recorded as http://127.0.0.1:8005
    let sdk: MPinClient = session.makeClient()  // on the cassette's transport, randomness and clock
    try await sdk.initialize(configuration: ["backend": backendURL])
    let user = try await sdk.makeNewUser(id: "alice@example.com", deviceName: "Phone")
    try await sdk.startRegistration(user)
    try await sdk.confirmRegistration(user)
    try await sdk.finishRegistration(user, pin: "1234")
    try await sdk.startAuthentication(user)
    do {
        _ = try await sdk.finishAuthentication(user, pin: "9999")
        Issue.record("a wrong PIN logged in")
    } catch {
        #expect(error.status.code == .incorrectPIN)  // error is an MPinError (typed throws)
    }
    try await sdk.startAuthentication(user)
    #expect(try await sdk.finishAuthentication(user, pin: "1234").contains("alice@example.com"))
}
