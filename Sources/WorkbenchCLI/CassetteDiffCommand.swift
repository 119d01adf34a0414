import ArgumentParser
import FlowRecording

/// `mpin-workbench cassette diff A B`: every difference, JSON-aware.
struct CassetteDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two cassettes: the first difference, then all of them.",
        discussion: """
            Metadata is compared field by field, events by index; JSON bodies by JSON path (a body \
            that is the same JSON written differently is reported as such). Live timings are left out \
            unless --include-timings. Exit status 0 when equal, 1 when they differ.

            Examples:
              mpin-workbench cassette diff Recordings/authenticate.json new.json
              mpin-workbench cassette diff old.json new.json --include-timings
            """
    )

    @Argument(help: "The first cassette.")
    var first: String

    @Argument(help: "The second cassette.")
    var second: String

    @Flag(help: "Also compare the per-phase timings of live exchanges.")
    var includeTimings = false

    func run() throws {
        let a = try CassetteOutput.read(first), b = try CassetteOutput.read(second)
        Console.out(CassetteDiff.text(a, b, names: (first, second), includeTimings: includeTimings))
        if !CassetteDiff.differences(a, b, includeTimings: includeTimings).isEmpty { throw ExitCode.failure }
    }
}
