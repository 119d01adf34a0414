import Foundation
import ReferenceBackend
import Testing

@testable import WorkbenchCLI

/// `serve --profile milagro-hosted-v3`: read in process, and refused, naming the profile, with
/// what the recorded backend does not have (the MFA platform's flavour, activation codes).
@Suite struct ServeProfileTests {
    @Test func theRecordedBackendsProfileIsRead() throws {
        #expect(try ServeCommand.parse(["--profile", "milagro-hosted-v3"]).profile == .milagroHostedV3)
        #expect(
            try ServeCommand.parse(["--profile", "milagro-hosted-v3", "--activation", "email"]).profile
                == .milagroHostedV3)
    }

    @Test(arguments: [["--flavour", "mfa-platform"], ["--activation", "code"]])
    func combinationsTheRecordedBackendLacks(_ flags: [String]) {
        do {
            _ = try ServeCommand.parse(["--profile", "milagro-hosted-v3"] + flags)
            Issue.record("--profile milagro-hosted-v3 \(flags.joined(separator: " ")) was accepted")
        } catch {
            #expect(ServeCommand.exitCode(for: error) == .validationFailure)
            #expect(
                ServeCommand.fullMessage(for: error).contains("milagro-hosted-v3 profile"),
                "\(ServeCommand.fullMessage(for: error))")
        }
    }
}
