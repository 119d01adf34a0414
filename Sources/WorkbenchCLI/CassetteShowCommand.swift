import ArgumentParser
import FlowRecording

/// `mpin-workbench cassette show FILE`: a readable timeline.
struct CassetteShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a cassette as a timeline: metadata, then one line per event grouped by scenario step."
    )

    @Argument(help: "The cassette file.")
    var file: String

    func run() throws {
        print(CassetteTimeline.text(try CassetteOutput.read(file), path: file), terminator: "")
    }
}
