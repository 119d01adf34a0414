import ArgumentParser
import FlowRecording
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette redact FILE --field NAME... [--out FILE]`.
struct CassetteRedactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact",
        abstract: "Replace secrets in a cassette by {{name}} placeholders.",
        discussion: """
            The values found under each --field name (call arguments and outputs, crypto values, \
            random draws by purpose, headers, URL query parameters, members of JSON bodies) are \
            replaced wherever they occur as a whole token, e.g. a regOTT in a response and in a later \
            URL. The placeholders are listed in the cassette's `redactions`; replay needs their values \
            again (or, with none, it replays on stand-ins: the flow only, reported PARTIAL). --defaults adds \
            the usual M-Pin secrets: \(Redactor.milagroFields.joined(separator: ", ")); after it no secret, nor \
            the client secret by SEC − TP, −(x+y)⁻¹·V or the random draws, can be recovered \
            (`cassette audit` checks a file).

            Exit status: 0 when written, 2 when the cassette cannot be read or written, or the usage \
            was wrong.
            """
    )

    @Argument(help: "The cassette file.")
    var file: String

    @Option(name: .customLong("field"), help: "A field name whose values are secret (repeatable).")
    var fields: [String] = []

    @Flag(help: "Also redact the default M-Pin secrets.")
    var defaults = false

    @Option(help: "Write the redacted cassette here instead of over FILE.")
    var out: String?

    func validate() throws {
        if fields.isEmpty && !defaults { throw ValidationError("Name at least one --field, or give --defaults.") }
    }

    func run() throws {
        let cassette = try CassetteOutput.read(file)
        let redacted = Redactor(fields: fields + (defaults ? Redactor.milagroFields : [])).redact(cassette)
        let target = out ?? file
        try CassetteOutput.write(redacted.canonicalBytes, to: target)
        for field in fields where !redacted.redactions.contains(where: { $0.field.lowercased() == field.lowercased() }) {
            Console.error("warning: --field \(field): no value of that name in \(file), nothing redacted for it\n")
        }
        let added = redacted.redactions.dropFirst(cassette.redactions.count)
        if added.isEmpty {
            print("\(target): nothing to redact")
        } else {
            print("\(target): " + added.map { "{{\($0.placeholder)}} (\($0.field), \($0.occurrences)×)" }.joined(separator: ", "))
        }
    }
}
