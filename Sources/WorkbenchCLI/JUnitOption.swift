import ArgumentParser
import FileAccess
import FlowRecording

/// `--junit FILE` of `replay`, `vectors verify`, `run` and `cassette serve`: a JUnit XML report
/// (`JUnitReport`) for CI systems, written even when checks fail (the exit status stays the
/// command's own). The file is tried before any work, so an unwritable path is said at once; it is
/// an error (exit status 2) naming the file, then and if writing it fails at the end.
struct JUnitOption: ParsableArguments {
    @Option(
        name: .customLong("junit"),
        help: ArgumentHelp(
            "Also write a JUnit XML report to this file (one testcase per cassette, vector group or scenario), even when checks fail.",
            valueName: "file"))
    var path: String?

    /// Whether the report can be written to the file: the atomic writer resolves the path and creates
    /// its temporary file next to it (removed again at once). Exit status 2 naming the file otherwise.
    func check() throws {
        guard let path else { return }
        do {
            _ = try AtomicFile.Writer(path: path)
        } catch {
            throw Self.fail(error)
        }
    }

    /// Writes `report` to the file (nothing without --junit); exit status 2 naming the file when it
    /// cannot be written.
    func write(_ report: JUnitReport) throws {
        guard let path else { return }
        do {
            try report.write(to: path)
        } catch {
            throw Self.fail(error)
        }
    }

    private static func fail(_ error: FileAccessError) -> CommandFailure {
        CommandFailure("--junit: \(error)")
    }
}
