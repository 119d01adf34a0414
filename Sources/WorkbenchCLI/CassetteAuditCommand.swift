import ArgumentParser
import FlowRecording
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette audit FILE...`: what a cassette gives away, found as an attacker would.
struct CassetteAuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract:
            "Attack a cassette before it is shared: secrets in clear, and every known derivation of the client secret.",
        discussion: """
            Lists every M-Pin secret still in clear (the fields `cassette redact --redact default` \
            hides, and a seed in the header), then runs each known derivation of the client secret on \
            what the file holds: seed → draws → x (the file's seed, the workbench's default seeds, the \
            bundled scenarios' seeds and every string of the file, each x checked against the public \
            U = x·H(ID)), the raw random draws into x, SEC − TP (CLIENT_1's SEC minus the time permit; \
            SEC alone without time permits), −(x+y)⁻¹·V (CLIENT_2's V with x and y), and, once a client \
            secret is known, a search over all 10,000 PINs for a token in clear and for the PIN \
            difference of a wrong-PIN attempt. Each derivation that works is named with the events it \
            used. On a recording of the embedded backend, what works only through a seed the file does \
            not hold (a default or bundled one) is that throwaway backend's and is said so: it does not \
            stop the file from being shareable. Fields in clear that are neither secret nor listed as \
            public are named too. Prints `FILE: shareable` when nothing is given away. Exit status: 0 \
            shareable, 1 when a secret or a derivation is found, 2 when a file cannot be read.

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
        let seeds = Self.defaultSeeds()
        for path in files {
            let report = MilagroAudit.audit(try CassetteOutput.read(path), seeds: seeds)
            let possible = report.possible
            for secret in report.clearSecrets { Console.line("\(path): \(secret)") }
            for derivation in possible { Console.line("\(path): \(derivation)") }
            let blocked = report.derivations.count - possible.count
            if !report.unclassified.isEmpty {
                Console.line(
                    "\(path): note: in clear, neither secret nor known public: \(report.unclassified.joined(separator: ", "))"
                )
            }
            let tried =
                "\(report.derivations.count) derivation\(report.derivations.count == 1 ? "" : "s") tried (\(report.seedsTried) seeds)"
            if report.isShareable {
                let throwaway = possible.count
                Console.line(
                    "\(path): shareable: no secret in clear; \(tried), "
                        + (throwaway == 0
                            ? "none possible"
                            : "\(blocked) not possible, \(throwaway) giving only the throwaway embedded backend's secrets")
                )
            } else {
                exposed = true
                let real = possible.filter { !$0.throwaway }.count
                Console.line(
                    "\(path): NOT shareable: \(report.clearSecrets.count) secret value\(report.clearSecrets.count == 1 ? "" : "s") in clear, "
                        + "\(real) derivation\(real == 1 ? "" : "s") possible of \(tried); `cassette redact --redact default` hides them, "
                        + "and a live recording without --seed draws from the system's generator")
            }
        }
        if exposed { throw ExitCode.failure }
    }

    /// The seeds a run of the workbench gets when none is given: the default, replay's fallback,
    /// and each bundled scenario's own.
    static func defaultSeeds(library: ScenarioLibrary = ScenarioLibrary()) -> [MilagroAudit.SeedCandidate] {
        var out = [
            MilagroAudit.SeedCandidate(
                seed: ScenarioCommandSupport.defaultSeed, source: "the workbench's default seed"),
            MilagroAudit.SeedCandidate(seed: ScenarioSession.replayFallbackSeed, source: "replay's fallback seed"),
        ]
        for file in library.files() {
            guard let script = try? ScriptParser.parse(file: file), let seed = script.seed else { continue }
            out.append(MilagroAudit.SeedCandidate(seed: seed, source: "the bundled scenario \(script.name)'s seed"))
        }
        return out
    }
}
