import ArgumentParser
import ClientConformance

/// `conform --client …`: the options that grade a client in place of a backend (docs/conformance.md,
/// "Grading a client"). `--client builtin` grades the workbench's own SDK; `--client -- COMMAND
/// [ARG…]` a driver run by the driver contract (everything after `--` is the command, so the
/// other options go before it). The report options (`--cases`, `--rate`, `--out`,
/// `--junit`, `--json`, `--html`, `--redact`, `--verbose`, `--list`) are the backend mode's.
struct ConformClientOptions: ParsableArguments {
    @Flag(
        name: .customLong("client"),
        help:
            "Grade a client in place of a backend: --client builtin (the workbench's SDK), or --client -- COMMAND [ARG...], a driver run by the driver contract (docs/conformance.md)."
    )
    var client = false

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

    @Argument(
        help: ArgumentHelp(
            "With --client: builtin, or after -- the driver's command and its arguments.", valueName: "client"))
    var command: [String] = []

    /// Whether the command grades a client.
    var isClient: Bool { client }

    /// The driver `--client` names: `builtin`, or a command (what follows `--`).
    var driver: any ClientDriver {
        command == ["builtin"] ? BuiltinDriver() : ProcessDriver(arguments: command)
    }

    /// Checks the client options; whether the command grades a client (then `--backend` must not be given).
    func validate(backend: String?) throws -> Bool {
        guard client else {
            if !command.isEmpty {
                throw ValidationError(
                    "unexpected arguments \(command.joined(separator: " ")): a driver's command goes after --client --")
            }
            return false
        }
        if backend != nil {
            throw ValidationError("--backend grades a backend and --client a client: give one of them")
        }
        if command.isEmpty {
            throw ValidationError("--client needs builtin, or -- followed by the driver's command and arguments")
        }
        return true
    }
}

extension ClientProfile: ExpressibleByArgument {}
