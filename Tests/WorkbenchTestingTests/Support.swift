import FlowRecording
import Foundation
import MPinSDK
import Testing

@testable import WorkbenchTesting

/// What the flow under test returned, to compare recording and replay.
struct FlowResult: Equatable {
    var state: String
    var authResultData: String
}

/// Registers alice with PIN 1234 and logs her in, through the session's seams.
@discardableResult
func registerAndLogIn(_ session: CassetteSession, pin: String = "1234") async throws -> FlowResult {
    let sdk = session.makeClient()
    session.beginStep("initialize")
    try await sdk.initialize(configuration: ["backend": session.backendURL])
    session.beginStep("register")
    let user = try await sdk.makeNewUser(id: "alice@example.com", deviceName: "Phone")
    try await sdk.startRegistration(user)
    try await sdk.confirmRegistration(user)
    try await sdk.finishRegistration(user, pin: "1234")
    session.beginStep("log in")
    try await sdk.startAuthentication(user)
    let data = try await sdk.finishAuthentication(user, pin: pin)
    let state = try await sdk.listUsers().first?.state.rawValue ?? "none"
    return FlowResult(state: state, authResultData: data)
}

/// The text of an issue's comments.
func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}
