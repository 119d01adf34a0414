import Foundation
import TestSupport
import Testing

/// What the executable reads and writes, end to end: repeated member names refused, writes through
/// links and never over what is not a regular file, the system's reason on a full disk, safe
/// default file names, inputs from pipes, numeric options that say their range, and options that
/// cannot take effect refused or warned about (skipped when the executable was not built).
@Suite("mpin-workbench files and options", .enabled(if: WorkbenchProcess.path != nil))
struct WorkbenchFilesExecutableTests {
    static var cassette: String { RepoPaths.path("Recordings/register-auto.json") }

    /// The file type bits of `lstat`'s mode (0o010000 a FIFO, 0o020000 a character device,
    /// 0o100000 a regular file, 0o120000 a symbolic link).
    func type(_ path: String) -> UInt32? {
        var status = stat()
        return lstat(path, &status) == 0 ? UInt32(status.st_mode) & 0o170000 : nil
    }

    // MARK: - Repeated member names

    @Test("lint --fix refuses a cassette with a second \"events\": [] and names both places")
    func repeatedEvents() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/twice.json"
        var text = try String(contentsOfFile: Self.cassette, encoding: .utf8)
        let firstLine = text.components(separatedBy: "\n").firstIndex { $0.hasPrefix("  \"events\": [") }.map { $0 + 1 }
        text = String(text.dropLast(2)) + ",\n  \"events\": []\n}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = text.components(separatedBy: "\n").count - 1
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        let lint = try WorkbenchProcess.run(["cassette", "lint", "--fix", path])
        #expect(lint.status == 1)
        let expected =
            "repeated member name \"events\" at $.events: first at line \(try #require(firstLine)), column 3, "
            + "again at line \(lines - 1), column 3"
        #expect(lint.stdout.contains(expected), "\(lint.stdout)")
        #expect(!lint.stdout.contains("rewritten"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)

        let show = try WorkbenchProcess.run(["cassette", "show", path])
        #expect(show.status == 2)
        #expect(show.stderr.contains(expected))
    }

    // MARK: - Writing

    @Test("an output through a symbolic link updates the target and keeps the link")
    func symbolicLinkOutput() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/target.json", link = directory + "/link.json"
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
        let result = try WorkbenchProcess.run(["cassette", "redact", Self.cassette, "--defaults", "--out", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(type(link) == 0o120000)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("{\n  \"backend\""))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["link.json", "target.json"])
    }

    @Test("record --out through a symbolic link writes the cassette at the target")
    func recordThroughALink() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/tiny.yaml"
        try "name: tiny\nsteps:\n  - sdk: initialize\n    with: {backend: $backend}\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        try "old".write(toFile: directory + "/kept.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/out.json", withDestinationPath: directory + "/kept.json")
        let result = try WorkbenchProcess.run(["record", script, "--out", directory + "/out.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(type(directory + "/out.json") == 0o120000)
        #expect(try String(contentsOfFile: directory + "/kept.json", encoding: .utf8).contains("\"name\": \"tiny\""))
    }

    @Test("a FIFO or a device node as the output is refused and left as it was")
    func notARegularFile() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let refused = try WorkbenchProcess.run(["cassette", "redact", Self.cassette, "--defaults", "--out", fifo])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains(
                "\(fifo): cannot write: is a FIFO (named pipe), not a regular file; refusing to replace it"))
        #expect(type(fifo) == 0o010000)

        // A device node of our own (the null device's numbers), made where nothing else uses it.
        let node = directory + "/null"
        guard mknod(node, mode_t(0o020600), dev_t(0x103)) == 0 else { return }  // major 1, minor 3; not permitted here
        let device = try WorkbenchProcess.run(["cassette", "redact", Self.cassette, "--defaults", "--out", node])
        #expect(device.status == 2)
        #expect(device.stderr.contains("\(node): cannot write: is a character device, not a regular file"))
        #expect(type(node) == 0o020000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["fifo", "null"])
    }

    @Test("a write past the file-size limit gives the system's reason and leaves no temporary file")
    func fileSizeLimit() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/out.json"
        // ulimit -f counts 512- or 1024-byte blocks; the cassette is far larger than 8 of either.
        let result = try WorkbenchProcess.run(
            shell:
                "trap '' XFSZ; ulimit -f 8 && exec \"$WORKBENCH\" cassette redact '\(Self.cassette)' --defaults --out '\(out)'"
        )
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(out): cannot write: File too large"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("a full disk gives 'No space left on device' (a small tmpfs, where mounting is allowed)")
    func fullDisk() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mount = try WorkbenchProcess.run(shell: "mount -t tmpfs -o size=16k tmpfs '\(directory)' 2>/dev/null")
        guard mount.status == 0 else { return }  // the file-size limit test shows the reason instead
        defer { _ = try? WorkbenchProcess.run(shell: "umount '\(directory)'") }
        let out = directory + "/out.json"
        let result = try WorkbenchProcess.run(["cassette", "redact", Self.cassette, "--defaults", "--out", out])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(out): cannot write: No space left on device"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("record without --out makes the scenario's name a safe file name under Recordings/")
    func recordNameStaysInTheFolder() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let work = directory + "/a/b"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try "name: ../../x\nsteps:\n  - sdk: initialize\n    with: {backend: $backend}\n"
            .write(toFile: work + "/escape.yaml", atomically: true, encoding: .utf8)
        let result = try WorkbenchProcess.run(["record", "escape.yaml"], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: work + "/Recordings/______x.json"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.json"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/a/x.json"))
        #expect(
            result.stderr.contains(
                "warning: the scenario name \"../../x\" is not a safe file name; writing Recordings/______x.json"))
    }

    // MARK: - Reading pipes

    @Test("a cassette and a legacy recording can be piped in through /dev/stdin")
    func pipedInputs() throws {
        let shown = try WorkbenchProcess.run(
            ["cassette", "show", "/dev/stdin"], input: try Data(contentsOf: URL(fileURLWithPath: Self.cassette)))
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("register-auto"))

        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let legacy = URL(
            fileURLWithPath: RepoPaths.path("Tests/LegacyImportTests/Fixtures/milagro-sdk-unit-tests.json"))
        let imported = try WorkbenchProcess.run(
            [
                "cassette", "import", "--format", "milagro-sdk", "/dev/stdin", "--out", directory,
                "--scenarios", RepoPaths.path("Scenarios"),
            ],
            input: try Data(contentsOf: legacy))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/testInit.json"))

        let piped = try WorkbenchProcess.run(shell: "cat '\(Self.cassette)' | \"$WORKBENCH\" cassette lint /dev/stdin")
        #expect(piped.status == 0, "\(piped.stdout) \(piped.stderr)")
    }

    // MARK: - Options

    @Test(
        "numeric options say their range for a negative, zero, huge or non-numeric value",
        arguments: [
            (["bench", "--runs", "-1"], "'--runs <runs>': must be an integer from 1 to 100000"),
            (["bench", "--runs", "9223372036854775807"], "'--runs <runs>': must be an integer from 1 to 100000"),
            (
                ["bench", "--runs", "99999999999999999999"],
                "must be an integer from 1 to 100000 (this is beyond any integer"
            ),
            (["replay", "--bench", "0", "x.json"], "'--bench <bench>': must be an integer from 1 to 1000"),
            (["serve", "--port", "-1"], "'--port <port>': must be an integer from 0 to 65535"),
            (["serve", "--time=-5"], "must be an integer from 0 to 253402300799 seconds since 1970"),
            (["serve", "--login-timeout", "1e400"], "must be a number more than 0 and at most 3600 seconds"),
            (["serve", "--bench", "--bench-runs", "-3"], "must be an integer from 1 to 1000"),
            (
                ["bench", "backend", "--authentications", "0"],
                "'--authentications <authentications>': must be an integer from 1 to 100000"
            ),
            (["record", "x.yaml", "--bench", "abc"], "must be an integer from 1 to 1000"),
        ])
    func numericRanges(arguments: [String], message: String) throws {
        let result = try WorkbenchProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test(
        "an option of another mode, or one that contradicts another, is an error naming it",
        arguments: [
            (["serve", "--bench-runs", "3"], "Unknown option '--bench-runs'"),
            (["serve", "--bench", "--port", "8080", "--seed", "s"], "Unknown option '--port'"),
            (["serve", "--order", "sequential"], "Unknown option '--order'"),
            (
                ["run", "x.yaml", "--backend", "http://127.0.0.1:1", "--profile", "milagro-oss"],
                "--profile sets up the embedded backend"
            ),
            (
                ["record", "x.yaml", "--backend", "http://127.0.0.1:1", "--profile", "milagro-oss"],
                "--profile sets up the embedded backend"
            ),
            (
                ["replay", "x.json", "--ignore", "authOTT", "--mode", "strict"],
                "--ignore goes with --mode ignore; with --mode strict it would be ignored."
            ),
            (["record", "x.yaml", "--redact", "none", "pin"], "--redact none redacts nothing; it cannot go with pin."),
        ])
    func ineffectiveOptions(arguments: [String], message: String) throws {
        let result = try WorkbenchProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("names that match nothing are warned about; an empty folder is an error")
    func namesThatMatchNothing() throws {
        let directory = try TemporaryDirectory.make("workbench-files")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/r.json"
        let redacted = try WorkbenchProcess.run([
            "cassette", "redact", Self.cassette, "--field", "noSuchField", "--field", "regOTT", "--out", out,
        ])
        #expect(redacted.status == 0)
        #expect(redacted.stderr.hasPrefix("warning: `--field` is now `--redact`\n"), "\(redacted.stderr)")
        #expect(redacted.stderr.contains("warning: --redact noSuchField: no value of that name"))
        #expect(!redacted.stderr.contains("--redact regOTT"))
        let newSpelling = try WorkbenchProcess.run([
            "cassette", "redact", Self.cassette, "--redact", "noSuchField", "regOTT", "--out", out,
        ])
        #expect(
            newSpelling.status == 0
                && newSpelling.stderr
                    == "warning: --redact noSuchField: no value of that name in \(Self.cassette), nothing redacted for it\n",
            "\(newSpelling)")

        let replayed = try WorkbenchProcess.run([
            "replay", Self.cassette, "--secret", "nothing=1", "--scenarios",
            RepoPaths.path("Scenarios"),
        ])
        #expect(replayed.stderr.contains("warning: --secret nothing: no cassette has the placeholder {{nothing}}"))

        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try WorkbenchProcess.run(["replay", empty])
        #expect(none.status == 2)
        #expect(none.stderr.contains("\(empty): a directory with no .json file in it"))
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
