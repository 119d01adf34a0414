import ArgumentParser
import FlowRecording
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette diagram FILE [--out OUT.html|OUT.svg|OUT.mmd]`.
struct CassetteDiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw a cassette as a sequence diagram: Mermaid text, an SVG image or a self-contained HTML page.",
        discussion: """
            Participants: Client (SDK), Browser, RPS, D-TA 1, D-TA 2, RPA, told from each request's URL \
            path: /rps/… (and /user, /authenticate, /loginResult) go to the RPS, /dta2/… to D-TA 2, \
            /dta1/…, /dta/…, /clientSecret, /serverSecret, /timePermit(s) to D-TA 1, /mpinAuthenticate, \
            /mpinVerify, /mpinActivate, /mpinPermitUser, /logout, /service, /authzurl, /token to the RPA; \
            anything else to a generic "server".

            Without --out the Mermaid text goes to standard output. With --out the extension of the file \
            says what is written there, and standard output gets one line, "wrote OUT": .html (or .htm) a \
            page that loads nothing from the network (the diagram drawn as SVG, long hex shortened with \
            the full text on hover, and a table of every exchange with its full URL, headers and bodies), \
            .svg the drawing alone, .mmd (or .mermaid) the Mermaid text. --html OUT is the old spelling of \
            --out OUT.html; it still writes the page, and warns.

            Examples:
              mpin-workbench cassette diagram Recordings/authenticate.json
              mpin-workbench cassette diagram Recordings/otp.json --out otp.html

            Exit status: 0 when drawn, 2 when the cassette cannot be read, the file cannot be written \
            or the usage was wrong.
            """
    )

    /// What `--out` writes, from the file's extension.
    enum Format: Equatable {
        case html, svg, mermaid

        static let extensions: [(suffix: String, format: Format)] = [
            (".html", .html), (".htm", .html), (".svg", .svg), (".mmd", .mermaid), (".mermaid", .mermaid),
        ]

        init?(path: String) {
            let lowered = path.lowercased()
            guard let match = Self.extensions.first(where: { lowered.hasSuffix($0.suffix) }) else { return nil }
            self = match.format
        }
    }

    @Argument(help: "The cassette file.")
    var file: String

    @Option(
        help: ArgumentHelp(
            "Write the diagram here instead of printing the Mermaid text; the extension says how: "
                + ".html a self-contained page, .svg the drawing, .mmd the Mermaid text.", valueName: "file"))
    var out: String?

    /// Kept for scripts written before `--out`; hidden from the help, which names it in the discussion.
    @Option(help: ArgumentHelp("The old spelling of --out FILE.html (warns).", valueName: "file", visibility: .hidden))
    var html: String?

    func validate() throws {
        if out != nil, html != nil { throw ValidationError("--html is the old spelling of --out; give --out only.") }
        if let out, Format(path: out) == nil {
            throw ValidationError(
                "--out \(out): the extension says what to write; use .html (or .htm) for the page, "
                    + ".svg for the drawing, .mmd (or .mermaid) for the Mermaid text.")
        }
    }

    func run() throws {
        let cassette = try CassetteOutput.read(file)
        let diagram = SequenceDiagram(map: .milagro)
        let target: (path: String, format: Format)
        if let html {
            Console.error(
                "warning: --html is the old spelling of --out; use --out \(html)"
                    + (Format(path: html) == .html ? "" : " with a .html name") + "\n")
            target = (html, .html)
        } else if let out, let format = Format(path: out) {
            target = (out, format)
        } else {
            Console.out(diagram.mermaid(cassette))
            return
        }
        let title = "\(cassette.scenario.name): \(file)"
        let text =
            switch target.format {
            case .html: diagram.html(cassette, title: title)
            case .svg: diagram.svg(cassette, title: title)
            case .mermaid: diagram.mermaid(cassette)
            }
        try CassetteOutput.write(Array(text.utf8), to: target.path)
        Console.line("wrote \(target.path)")
    }
}
