import Foundation
import TestSupport
import Testing

/// One exit-status rule on every command (issue 26, point 7): 1 when the check failed, 2 when the
/// input could not be read or the usage was wrong; the root help states it and every leaf help
/// names its exit status.
@Suite("exit status of every command", .enabled(if: WorkbenchProcess.path != nil))
struct ExitStatusExecutableTests {
    /// Every leaf command with arguments that name `missing` as its input file (`out` is a folder
    /// that exists, for the commands that also write).
    static func commands(missing: String, out: String) -> [[String]] {
        [
            ["vectors", "verify", missing],
            ["vectors", "lint", missing],
            ["vectors", "merge", missing, "--out", out + "/merged.json"],
            ["cassette", "show", missing],
            ["cassette", "diff", missing, missing],
            ["cassette", "lint", missing],
            ["cassette", "check", missing],
            ["cassette", "redact", missing, "--redact", "default", "--out", out + "/redacted.json"],
            ["cassette", "diagram", missing],
            ["cassette", "import", "--format", "milagro-sdk", missing, "--out", out + "/imported"],
            ["cassette", "serve", missing, "--port", "0"],
            ["run", missing],
            ["record", missing, "--embedded", "--out", out + "/recorded.json"],
            ["replay", missing],
        ]
    }

    /// The leaf commands that read no input file, for the usage test and the help test.
    static let commandsWithoutInput: [[String]] = [
        ["vectors", "generate"], ["vectors", "bench"], ["bench"], ["bench", "crypto"], ["bench", "backend"], ["proxy"],
        ["checksum"], ["serve"],
    ]

    @Test("a missing input file exits 2 and names the file, on every command")
    func missingFile() throws {
        let directory = try TemporaryDirectory.make("exit-status")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = directory + "/no-such-file.json"
        for command in Self.commands(missing: missing, out: directory) {
            let result = try WorkbenchProcess.run(command, seconds: 60)
            #expect(result.status == 2, "\(command.joined(separator: " ")): \(result)")
            #expect(result.stderr.contains(missing), "\(command.joined(separator: " ")): \(result)")
        }
    }

    /// A guard rather than a finding: usage errors already exited 2 before issue 26.
    @Test("an unknown option exits 2, on every command")
    func badUsage() throws {
        let leaves =
            Self.commands(missing: "x", out: "y").map { Array($0.prefix { !$0.hasPrefix("-") && $0 != "x" }) }
            + Self.commandsWithoutInput
        for command in leaves {
            let result = try WorkbenchProcess.run(command + ["--no-such-option"], seconds: 60)
            #expect(result.status == 2, "\(command.joined(separator: " ")): \(result)")
            #expect(
                result.stderr.contains("Error: ") && result.stderr.contains("Usage: mpin-workbench"),
                "\(command.joined(separator: " ")): \(result)")
        }
    }

    @Test("a mistyped subcommand exits 2 with the one it is near")
    func mistypedSubcommand() throws {
        let result = try WorkbenchProcess.run(["cassette", "shwo", "x.json"], seconds: 60)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("did you mean 'show'?"), "\(result)")
    }

    @Test("the root help states the rule, and every command's help names its exit status")
    func helpStatesTheRule() throws {
        let root = try WorkbenchProcess.run(["--help"])
        // The help is wrapped to the terminal's width: compare the words.
        let words = root.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("1 when the check failed"), "\(root)")
        #expect(words.contains("2 when the input could not be read or the usage was wrong"), "\(root)")
        let leaves =
            Self.commands(missing: "x", out: "y").map { Array($0.prefix { !$0.hasPrefix("-") && $0 != "x" }) }
            + Self.commandsWithoutInput
        for command in leaves {
            let help = try WorkbenchProcess.run(["help"] + command)
            #expect(help.status == 0, "\(command)")
            #expect(
                help.stdout.contains("Exit status"),
                "help \(command.joined(separator: " ")) does not name its exit status")
        }
    }
}
