import FlowRecording
import Foundation
import MPinSDK
import Synchronization
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

/// One issue as a test recorded it, for tests that record failures on purpose.
struct SeenIssue: Sendable {
    var text: String
    var isFailure: Bool
    var line: Int?
    /// The issue's kind as Swift Testing describes it (`Expectation failed: …`).
    var kind: String
}

/// The issues recorded inside `body`, in order, taken out of the running test (so that the
/// deliberate failures do not fail it), with the module's notes that went to its note writer
/// instead of a warning issue (a run that drops warnings: `swift test --event-stream-output-path`),
/// as warnings of kind `note`.
func capturingIssues(_ body: @escaping @Sendable () async throws -> Void) async throws -> [SeenIssue] {
    let seen = Mutex<[SeenIssue]>([])
    let test = try #require(Test.current)
    try await CassetteReporter.$noteWriter.withValue({ location, message in
        seen.withLock { $0.append(SeenIssue(text: message, isFailure: false, line: location.line, kind: "note")) }
    }) {
        try await IssueHandlingTrait.compactMapIssues { issue in
            seen.withLock {
                $0.append(
                    SeenIssue(
                        text: text(of: issue), isFailure: issue.severity >= .error, line: issue.sourceLocation?.line,
                        kind: String(describing: issue.kind)))
            }
            return nil
        }.provideScope(for: test, testCase: Test.Case.current, performing: body)
    }
    return seen.withLock { $0 }
}
