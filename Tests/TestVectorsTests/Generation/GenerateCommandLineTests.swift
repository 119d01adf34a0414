import FileAccess
import Foundation
import OrderedJSON
import Testing

@testable import TestVectors

/// The `vectors generate` command in a generated file's header (issue 26, point 7): quoted as a
/// shell needs it, so that it runs as written, and read back with a shell's rules by `vectors lint`.
@Suite("the generate command in a header")
struct GenerateCommandLineTests {
    static let seeds = [
        #"a b "c" --count 9"#, "it's", "", "tab\there", "$HOME;rm -rf x", "plain-seed_1.2", "new\nline", #"back\slash"#,
    ]

    @Test("the command a shell reads back is the one that was run", arguments: seeds)
    func quotedAsAShellNeedsIt(seed: String) throws {
        let command = GenerateCommandLine.command(suite: "pin-mapping", curve: "bn254cx", count: 9, seed: seed)
        let words = try #require(ShellWords.split(command), "\(command)")
        #expect(
            words == [
                "mpin-workbench", "vectors", "generate", "--suite", "pin-mapping", "--curve", "bn254cx", "--count", "9",
                "--seed", seed,
            ])
        let line = GenerateCommandLine.line(version: "0.1.0", command: command)
        #expect(
            try GenerateCommandLine.parse(line).get()
                == GenerateCommandLine(version: "0.1.0", suite: "pin-mapping", curve: "bn254cx", count: "9", seed: seed)
        )
    }

    @Test("a plain seed is written without quotes, as the published files have it")
    func plainSeedUnquoted() {
        #expect(
            GenerateCommandLine.command(suite: "pin-mapping", curve: "bn254cx", count: 20, seed: "workbench-2026-1")
                == "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 20 --seed workbench-2026-1"
        )
    }

    @Test("an unquoted seed with spaces is not the file's seed to lint")
    func lintReadsTheHeaderAsAShellWould() async throws {
        let seed = #"a b "c" --count 9"#
        let text = JSONWriter.canonical(await VectorGenerator(suite: .pinMapping, count: 1, seed: seed).generate())
        #expect(
            VectorLinter.lint(text: text, file: "f.json").isEmpty, "\(VectorLinter.lint(text: text, file: "f.json"))")
        let quoted = GenerateCommandLine.command(suite: "pin-mapping", curve: "bn254cx", count: 1, seed: seed)
        let unquoted = "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 1 --seed " + seed
        // The command as the file writes it: escaped as a JSON string, without its quotes.
        let escapedQuoted = String(JSONWriter.canonical(.string(quoted)).dropFirst().dropLast(2))
        let escapedUnquoted = String(JSONWriter.canonical(.string(unquoted)).dropFirst().dropLast(2))
        let range = try #require(text.range(of: escapedQuoted), "\(escapedQuoted)")
        let broken = text.replacingCharacters(in: range, with: escapedUnquoted)
        let problems = VectorLinter.lint(text: broken, file: "f.json")
        #expect(problems.contains { $0.path.hasPrefix("header") }, "\(problems)")
    }

    @Test(
        "lines a shell would not run as one plain command are refused",
        arguments: [
            "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 1 --seed 'open",
            "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 1 --seed $HOME",
            "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 1 --seed a; rm x",
            "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 1 --seed a b",
            "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 1 --count 2 --seed a",
            "mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --seed a",
        ])
    func refused(command: String) {
        guard case .failure = GenerateCommandLine.parse(GenerateCommandLine.line(version: "0.1.0", command: command))
        else {
            Issue.record("parsed: \(command)")
            return
        }
    }
}
