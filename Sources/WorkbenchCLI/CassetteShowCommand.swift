import ArgumentParser
import FlowRecording

/// `mpin-workbench cassette show FILE`: a readable timeline.
struct CassetteShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a cassette as a timeline: metadata, then one line per event grouped by scenario step.",
        discussion: """
            Exit status: 0 when printed, 2 when the cassette cannot be read (the message says why) or \
            the usage was wrong.

            Examples:
              mpin-workbench cassette show Recordings/authenticate.json
            """
    )

    @Argument(help: "The cassette file.")
    var file: String

    func run() throws {
        Console.out(CassetteTimeline.text(try CassetteOutput.read(file), path: file))
    }
}
