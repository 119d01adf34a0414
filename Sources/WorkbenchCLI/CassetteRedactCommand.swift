import ArgumentParser
import FlowRecording
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette redact FILE --redact default|FIELD... [--out FILE]`.
struct CassetteRedactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact",
        abstract: "Replace secrets in a cassette by {{name}} placeholders.",
        discussion: """
            The values found under each field name --redact gives (call arguments and outputs, crypto \
            values, random draws by purpose, headers, URL query parameters, members of JSON bodies) are \
            replaced wherever they occur as a whole token, e.g. a regOTT in a response and in a later \
            URL. The placeholders are listed in the cassette's `redactions`; replay needs their values \
            again (or, with none, it replays on stand-ins: the flow only, reported PARTIAL). \
            `--redact default` names the usual M-Pin secrets: \(Redactor.milagroFields.joined(separator: ", ")); \
            after it no secret, nor the client secret by SEC − TP, −(x+y)⁻¹·V or the random draws, can \
            be recovered (`cassette audit` checks a file). --redact is spelt as in `record` and \
            `proxy`; the old --field NAME and --defaults still work, with a warning.

            Exit status: 0 when written, 2 when the cassette cannot be read or written, or the usage \
            was wrong.

            Examples:
              mpin-workbench cassette redact flow.json --redact default \\
                  --out flow.redacted.json
              mpin-workbench cassette redact flow.json --redact regOTT authOTT
              mpin-workbench cassette redact flow.json --redact default mpinId
            """
    )

    @Argument(help: "The cassette file.")
    var file: String

    @Option(
        parsing: .upToNextOption,
        help:
            "Fields to redact: 'default' (the M-Pin secrets: PIN, tokens, shares, SEC, x and the random draws, OTTs, OTPs, codes, ...) and/or field names."
    )
    var redact: [String] = []

    @Option(help: "Write the redacted cassette here instead of over FILE.")
    var out: String?

    /// The field names given, `default` left out.
    var fields: [String] { redact.filter { $0 != "default" } }

    func validate() throws {
        if redact.isEmpty {
            throw ValidationError("Name the fields to redact: --redact default, --redact NAME..., or both.")
        }
        if redact.contains("none") {
            throw ValidationError("--redact none redacts nothing: there would be nothing to write.")
        }
    }

    func run() throws {
        let cassette = try CassetteOutput.read(file)
        let redacted = Redactor(fields: fields + (redact.contains("default") ? Redactor.milagroFields : [])).redact(
            cassette)
        let target = out ?? file
        try CassetteOutput.write(redacted, to: target)
        for field in fields where !redacted.redactions.contains(where: { $0.field.lowercased() == field.lowercased() })
        {
            Console.error("warning: --redact \(field): no value of that name in \(file), nothing redacted for it\n")
        }
        let added = redacted.redactions.dropFirst(cassette.redactions.count)
        if added.isEmpty {
            Console.line("\(target): nothing to redact")
        } else {
            Console.line(
                "\(target): "
                    + added.map { "{{\($0.placeholder)}} (\($0.field), \($0.occurrences)×)" }.joined(separator: ", "))
        }
    }
}
