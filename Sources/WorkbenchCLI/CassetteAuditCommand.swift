import ArgumentParser
import FlowRecording
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette audit FILE...`: what a cassette gives away.
struct CassetteAuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Say what a cassette gives away before it is shared: secrets in clear, and the client secret's derivations.",
        discussion: """
            Lists every M-Pin secret still in clear (the fields `cassette redact --redact default` \
            hides), then tries each known derivation of the client secret on what the file holds: \
            SEC − TP (CLIENT_1's SEC minus the time permit; SEC alone without time permits), \
            −(x+y)⁻¹·V (CLIENT_2's V with x and y), and the raw random draws into x. Fields in \
            clear that are neither secret nor listed as public are named too. Prints \
            `FILE: shareable` when nothing is given away. Exit status: 0 shareable, 1 when a \
            secret or a derivation is found, 2 when a file cannot be read.

            Examples:
              mpin-workbench cassette audit flow.redacted.json
            """
    )

    @Argument(help: "Cassette files.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one cassette file.") }
    }

    func run() throws {
        var exposed = false
        for path in files {
            let report = MilagroAudit.audit(try CassetteOutput.read(path))
            let possible = report.derivations.filter { $0.result != nil }
            for secret in report.clearSecrets { print("\(path): \(secret)") }
            for derivation in possible { print("\(path): \(derivation)") }
            let blocked = report.derivations.count - possible.count
            if !report.unclassified.isEmpty {
                print("\(path): note: in clear, neither secret nor known public: \(report.unclassified.joined(separator: ", "))")
            }
            if report.isShareable {
                print("\(path): shareable: no secret in clear; \(blocked) derivation\(blocked == 1 ? "" : "s") tried, none possible")
            } else {
                exposed = true
                print("\(path): NOT shareable: \(report.clearSecrets.count) secret value\(report.clearSecrets.count == 1 ? "" : "s") in clear, "
                    + "\(possible.count) derivation\(possible.count == 1 ? "" : "s") possible; `cassette redact --redact default` hides them")
            }
        }
        if exposed { throw ExitCode(1) }
    }
}
