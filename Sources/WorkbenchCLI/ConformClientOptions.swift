import ArgumentParser
import ClientConformance

/// `conform --client …`: the options that grade a client in place of a backend (docs/conformance.md,
/// "Grading a client"). `--client builtin` grades the workbench's own SDK; `--client -- COMMAND
/// [ARG…]` a driver run by the driver contract. The report options (`--cases`, `--rate`, `--out`,
/// `--junit`, `--json`, `--html`, `--redact`, `--verbose`, `--list`) are the backend mode's.
struct ConformClientOptions: ParsableArguments {
    @Option(
        name: .customLong("client"), parsing: .unconditional,
        help: ArgumentHelp(
            "Grade a client in place of a backend: 'builtin' (the workbench's SDK), or '--' followed by a driver's command and arguments (the driver contract, docs/conformance.md).",
            valueName: "builtin|--"))
    var client: String?

    @Option(
        help:
            "With --client: whose behaviour the graded backend follows: default, milagro-oss, milagro-hosted-v3 or mfa-platform (the MFA platform's flavour)."
    )
    var profile: ClientProfile = .default

    @Option(
        name: .customLong("run-timeout"), parsing: .unconditional,
        help:
            "With --client: the most seconds one run of the client may take, more than 0 and at most 3600 (default 60).",
        transform: BoundedNumber.decimal(0...3_600, aboveLowerBound: true, unit: "seconds"))
    var runTimeout = DriverLimits.defaultTimeLimit

    @Argument(help: ArgumentHelp("With --client --: the driver's command and its arguments.", valueName: "command"))
    var command: [String] = []

    /// Whether the command grades a client.
    var isClient: Bool { client != nil }

    /// The driver `--client` names.
    var driver: any ClientDriver {
        client == "builtin" ? BuiltinDriver() : ProcessDriver(arguments: command)
    }

    /// Checks the client options; whether the command grades a client (then `--backend` must not be given).
    func validate(backend: String?) throws -> Bool {
        guard let client else {
            if !command.isEmpty {
                throw ValidationError(
                    "unexpected arguments \(command.joined(separator: " ")): a driver's command goes after --client --")
            }
            return false
        }
        if backend != nil {
            throw ValidationError("--backend grades a backend and --client a client: give one of them")
        }
        switch client {
        case "builtin" where command.isEmpty: break
        case "builtin":
            throw ValidationError(
                "--client builtin takes no command (got \(command.joined(separator: " "))); a command goes after --client --"
            )
        case "--" where !command.isEmpty: break
        case "--": throw ValidationError("--client -- needs the driver's command after it")
        default:
            throw ValidationError(
                "--client is 'builtin' or '--' followed by the driver's command and arguments, not '\(client)'")
        }
        return true
    }
}

extension ClientProfile: ExpressibleByArgument {}
