import ArgumentParser
import FlowRecording
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette diagram FILE [--html OUT]`.
struct CassetteDiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw a cassette as a Mermaid sequence diagram (and a standalone HTML page).",
        discussion: """
            Participants: Client (SDK), Browser, RPS, D-TA 1, D-TA 2, RPA, told from each request's URL \
            path: /rps/… (and /user, /authenticate, /loginResult) go to the RPS, /dta2/… to D-TA 2, \
            /dta1/…, /dta/…, /clientSecret, /serverSecret, /timePermit(s) to D-TA 1, /mpinAuthenticate, \
            /mpinVerify, /mpinActivate, /mpinPermitUser, /logout, /service, /authzurl, /token to the RPA; \
            anything else to a generic "server". The Mermaid text goes to standard output; --html also \
            writes a page with the diagram and the same flow as a plain table, readable offline.

            Exit status: 0 when drawn, 2 when the cassette cannot be read, the page cannot be written \
            or the usage was wrong.
            """
    )

    @Argument(help: "The cassette file.")
    var file: String

    @Option(help: "Also write a standalone HTML page here.")
    var html: String?

    func run() throws {
        let cassette = try CassetteOutput.read(file)
        let diagram = SequenceDiagram(map: .milagro)
        print(diagram.mermaid(cassette), terminator: "")
        if let html {
            try CassetteOutput.write(Array(diagram.html(cassette, title: "\(cassette.scenario.name): \(file)").utf8), to: html)
        }
    }
}
