import ArgumentParser
import FileAccess
import FlowRecording
import Foundation
import LegacyImport
import MilagroRecording
import Scenarios

/// `mpin-workbench cassette import --format milagro-sdk FILE --out DIR`.
struct CassetteImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn recordings of another harness into cassettes, one per test.",
        discussion: """
            --format milagro-sdk reads the JSON file of the Milagro C++ SDK core's test harness (a list \
            of request/response pairs whose context ends in @<testName>) and writes DIR/<testName>.json \
            for each test that sent requests. A file holding one run of the harness's suite over one \
            SDK (tests using the state earlier tests left; any part of the suite, in any order) gives \
            each such test a cassette that starts with the exchanges of the tests before it in the file \
            as setup, and a script composed from the suite description milagro-sdk-unit-tests under \
            --scenarios: the earlier tests' steps, then the test's own, with the users, PINs, backends \
            and other call arguments bound from each test's own requests (their contexts, the backends \
            they asked); a variable no request of the test shows keeps the suite's default, with a note \
            and the reason in the cassette (origin.unbound, shown by cassette show). Contexts with a \
            suffix after the test's name (@testAuthenticate1SecondAuth) belong to that test. These \
            cassettes replay in mode context: each request is looked up by method, URL and context, as \
            the harness's own player does, and its body compared but for pass 1's and pass 2's points \
            (U, UT, V: fresh randomness). Otherwise each test stands alone and replays in mode \
            method-url with the scenario of its name. The browser side of access-number flows gets the \
            browser actor.

            The file name is the test's name made safe (letters, digits, `-`, `_`; anything else `_`). \
            When two tests give one name (@a/b, @a:b, @a b and @a\\b all give a_b; names are compared \
            after Unicode normalisation and without case, so é and e + U+0301 count as one), the first \
            keeps it and each later one is written to <name>-2.json, <name>-3.json, ..., with a note \
            naming both tests: no test's cassette overwrites another's, and two tests are never merged. \
            A name longer than the file system takes is shortened: its first 230 bytes or fewer, `-` \
            and 16 hex digits of a hash of the whole name (the same name always gives the same file).

            The cassettes are written all or none: first into a staging folder beside DIR, then moved \
            into place (DIR itself renamed into place when it did not exist); if any cannot be \
            written, nothing of the run is left in DIR.

            Exit status: 0 when imported, 2 when the file cannot be read or imported or the cassettes \
            cannot be written (the message says which; none was written), or the usage was wrong.

            Examples:
              mpin-workbench cassette import --format milagro-sdk recorded.json \\
                  --out Recordings/imported
            """
    )

    @Option(help: "The format of FILE (milagro-sdk).")
    var format: String

    @Argument(help: "The recorded file.")
    var file: String

    @Option(help: "The directory for the cassettes (created if missing).")
    var out: String

    @Option(
        help: ArgumentHelp(
            "Where the suite description of sequential runs is looked up, in its suites/ folders (default: "
                + "the bundled scenarios' folder, found as record finds it).", valueName: "folder"))
    var scenarios: String?

    func validate() throws {
        if format != LegacyImporter.formatName {
            throw ValidationError("Unknown format \"\(format)\"; supported: \(LegacyImporter.formatName).")
        }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try CassetteFile.readBytes(file)
        } catch {
            throw CommandFailure(error.description)
        }
        let suite: LegacySuite?
        let library = ScenarioLibrary(directory: scenarios)
        do {
            suite = try library.suite(named: LegacyImporter.suiteName)
        } catch {
            throw CommandFailure(error.description)
        }
        let importer = LegacyImporter(
            tool: .init(name: "mpin-workbench", version: WorkbenchVersion.current), suite: suite)
        let outcome: LegacyImporter.Outcome
        do {
            outcome = try importer.run(bytes, path: file)
        } catch {
            throw CommandFailure(error.description)
        }
        for note in outcome.notes { Console.line("note: " + note) }
        if suite == nil, !outcome.notes.isEmpty {
            Console.line(
                "note: no suite description \(LegacyImporter.suiteName) under "
                    + library.searched.joined(separator: ", ") + " (give the scenario folder with --scenarios, "
                    + "or set MPIN_WORKBENCH_SCENARIOS)"
            )
        }
        do {
            try AtomicFile.writeAll(outcome.cassettes.map(\.fileName), into: out) {
                outcome.cassettes[$0].cassette.canonicalBytes
            }
        } catch {
            throw CommandFailure("\(error) (no cassette written)")
        }
        for item in outcome.cassettes {
            let path = (out as NSString).appendingPathComponent(item.fileName)
            var line = "\(path): \(item.test), \(item.ownExchanges) exchange\(item.ownExchanges == 1 ? "" : "s")"
            if outcome.suite != nil { line += " (+ \(item.setupExchanges) of the earlier tests as setup)" }
            Console.line(line)
        }
        var summary = "\(outcome.cassettes.count) cassettes from \(file)"
        if let name = outcome.suite {
            summary += " (one sequential run of the suite \(name): each cassette replays the earlier tests first)"
        }
        Console.line(summary)
    }
}
