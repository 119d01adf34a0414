import ArgumentParser
import FlowRecording
import ProtocolChecks

/// `mpin-workbench cassette check FILE...`: the proxy's M-Pin checks on any cassette.
struct CassetteCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run the M-Pin protocol checks on cassettes (recorded, imported or proxied).",
        discussion: """
            Checks each HTTP exchange in order, as `proxy` does while recording: the status against \
            docs/protocol.md §4, JSON bodies and members, hex lengths, G1 points on the curve, access-number \
            check digits, time-permit dates, the order of the flow, what each request is and who sent \
            it (the browser's access-number requests, polls and login, else the SDK), and the origins \
            the client settings name that no exchange went to. Redacted values ({{name}}) are not checked.

            Each finding has a level. failure: certainly wrong by the protocol (malformed hex or points \
            in a server's 200 answer, a malformed request the server accepted, a 2xx other than 200). \
            warning: suspect but possible (a 5xx, no response, an origin the client talked to that the \
            cassette lacks). note: a legitimate outcome (a 4xx on bad input, a malformed request the \
            server refused, a tampered access number the server answered 412, an event recorded under \
            another actor than its request names).

            Prints one line per finding, `FILE: LEVEL [EVENT] METHOD PATH (ACTOR): MESSAGE (CODE)`, then \
            `FILE: N exchanges: P passed, F failures, W warnings, N notes`. Exit status 1 when any \
            finding is a failure, 0 when there are only warnings and notes, 2 when a file cannot be read.

            Examples:
              mpin-workbench cassette check Recordings/authenticate.json
            """
    )

    @Argument(help: "Cassette files.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one cassette file.") }
    }

    func run() throws {
        var unreadable = false, failed = false
        for path in files {
            let cassette: Cassette
            do {
                cassette = try CassetteFile.read(path)
            } catch {
                Console.failure(error.description)
                unreadable = true
                continue
            }
            let summary = FlowChecker.summary(of: cassette)
            for line in summary.findingLines { Console.line("\(path): \(line)") }
            Console.line(
                "\(path): \(summary.reports.count) exchange\(summary.reports.count == 1 ? "" : "s"): \(summary.countsText)"
            )
            if !summary.passed { failed = true }
        }
        if unreadable { throw ExitCode.cannotRun }
        if failed { throw ExitCode.failure }
    }
}
