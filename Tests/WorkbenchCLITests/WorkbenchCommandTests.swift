import ArgumentParser
import Foundation
import Testing

@testable import WorkbenchCLI

/// The root command: the main jobs first in the help, an example in every command's help, every
/// command that awaits an `AsyncParsableCommand` (so is the root), and `bench` a group whose default
/// is `bench crypto`.
@Suite struct WorkbenchCommandTests {
    /// Every command under `command`, itself included, with its path of names.
    static func commands(_ command: any ParsableCommand.Type, path: [String] = []) -> [(
        [String], any ParsableCommand.Type
    )] {
        let name = command.configuration.commandName ?? "\(command)"
        let here = path + [name]
        return [(here, command)] + command.configuration.subcommands.flatMap { commands($0, path: here) }
    }

    @Test func theHelpListsTheMainJobsFirst() {
        let names = WorkbenchCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" }
        #expect(
            names == [
                "record", "replay", "run", "proxy", "serve", "conform", "cassette", "vectors", "checksum", "bench",
            ])
        let help = WorkbenchCommand.helpMessage()
        let record = help.range(of: "\n  record ")?.lowerBound, bench = help.range(of: "\n  bench ")?.lowerBound
        #expect(record != nil && bench != nil && record! < bench!, "\(help)")
    }

    @Test func everyCommandShowsAnExample() {
        for (path, command) in Self.commands(WorkbenchCommand.self) {
            let discussion = command.configuration.discussion
            #expect(
                discussion.contains("\nExamples:\n  mpin-workbench "), "\(path.joined(separator: " ")) shows no example"
            )
        }
    }

    /// The examples copy and paste: no line of them is longer than 78 columns (so the help, written
    /// 80 columns wide, wraps none of them), a long command goes on with a shell's ` \` line
    /// continuation, and each command, its lines joined, is one the parser takes. Before, 21 lines
    /// were wrapped mid-command at 80 columns.
    @Test func theExamplesCopyAndPaste() throws {
        for (path, command) in Self.commands(WorkbenchCommand.self) {
            let name = path.joined(separator: " ")
            let discussion = command.configuration.discussion
            guard let start = discussion.range(of: "\nExamples:\n") else { continue }
            let lines = discussion[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { $0.hasPrefix("  ") }
            var commands: [String] = []
            var joined = ""
            for line in lines {
                #expect(line.count <= 78, "\(name): \(line.count) columns: \(line)")
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasSuffix(" \\") {
                    joined += text.dropLast(2) + " "
                } else {
                    commands.append(joined + text)
                    joined = ""
                }
            }
            #expect(joined.isEmpty, "\(name): an example ends with a continuation")
            for example in commands where !example.contains(where: { "|$<>;&`".contains($0) }) {
                let words = example.split(separator: " ").map { String($0).replacingOccurrences(of: "'", with: "") }
                #expect(words.first == "mpin-workbench", "\(name): \(example)")
                #expect(throws: Never.self, "\(name): \(example)") {
                    _ = try WorkbenchCommand.parse(commandLine: Array(words.dropFirst()))
                }
            }
        }
    }

    @Test func everyCommandThatAwaitsIsAsync() {
        let asynchronous: [any ParsableCommand.Type] = [
            WorkbenchCommand.self, RecordCommand.self, ReplayCommand.self, RunCommand.self,
            ProxyCommand.self, ServeCommand.self, CassetteServeCommand.self,
            BenchBackendCommand.self, VectorsGenerateCommand.self, VectorsBenchCommand.self,
        ]
        for command in asynchronous {
            #expect(command is any AsyncParsableCommand.Type, "\(command)")
        }
    }

    @Test func plainBenchIsBenchCrypto() throws {
        let plain = try #require(
            try WorkbenchCommand.parse(commandLine: ["bench", "--runs", "3", "--json"]) as? BenchCryptoCommand)
        #expect(plain.runs == 3 && plain.json)
        #expect(try WorkbenchCommand.parse(commandLine: ["bench"]) is BenchCryptoCommand)
        #expect(try WorkbenchCommand.parse(commandLine: ["bench", "crypto"]) is BenchCryptoCommand)
        #expect(try WorkbenchCommand.parse(commandLine: ["bench", "backend"]) is BenchBackendCommand)
    }

    @Test func theListeningCommandsShareOnePortRange() throws {
        for path in [
            ["serve"], ["cassette", "serve", "c.json"],
            ["proxy", "--upstream", "http://127.0.0.1:1", "--out", "o.json"],
        ] {
            #expect(throws: (any Error).self, "\(path)") {
                try WorkbenchCommand.parse(commandLine: path + ["--port", "65536"])
            }
            #expect(throws: Never.self, "\(path)") {
                try WorkbenchCommand.parse(commandLine: path + ["--port", "65535"])
            }
        }
        #expect(ListenOption.portRange == 0...65_535)
    }

    @Test func runAndRecordTakeTheSameFlavourAndProfile() throws {
        for name in ["run", "record"] {
            let command = try WorkbenchCommand.parse(commandLine: [
                name, "authenticate", "--flavour", "mfa-platform", "--profile", "milagro-oss",
            ])
            let overrides = try #require(
                (command as? RunCommand)?.overrides ?? (command as? RecordCommand)?.overrides, "\(name)")
            #expect(overrides.flavour == .mfaPlatform && overrides.profile == .milagroOSS, "\(name)")
            #expect(throws: (any Error).self, "\(name)") {
                try WorkbenchCommand.parse(commandLine: [name, "x", "--flavour", "other"])
            }
        }
    }

    @Test func anOptionThatCannotTakeEffectIsAWarning() throws {
        let generate = try VectorsGenerateCommand.parse([
            "--suite", "access-number", "--curve", "bn254cx", "--seed", "s", "--out", "x.json",
        ])
        #expect(
            generate.warnings == [
                "warning: --curve bn254cx has no effect: the access-number suite's values do not depend on the curve"
            ])
        #expect(
            try VectorsGenerateCommand.parse([
                "--suite", "pairing", "--curve", "bn254cx", "--seed", "s", "--out", "x.json",
            ]).warnings.isEmpty)
        let serve = try ServeCommand.parse(["--client-id", "abc"])
        #expect(serve.warnings.first?.contains("--client-id is the MFA platform's X-MIRACL-CID") == true)
        #expect(try ServeCommand.parse(["--client-id", "abc", "--flavour", "mfa-platform"]).warnings.isEmpty)
        let proxy = try ProxyCommand.parse(["--upstream", "http://127.0.0.1:1", "--out", "o.json", "--seed", "s"])
        #expect(proxy.warnings.first?.contains("--seed goes with --scenario") == true)
        #expect(
            try ProxyCommand.parse([
                "--upstream", "http://127.0.0.1:1", "--out", "o.json", "--seed", "s", "--scenario", "x",
            ]).warnings.isEmpty)
        // Without --mode, --ignore cannot take effect (a warning); against another --mode it contradicts it (an error).
        #expect(
            try ReplayCommand.parse(["x.json", "--ignore", "authOTT"]).warnings.first?.contains(
                "--ignore goes with --mode ignore") == true)
        #expect(throws: (any Error).self) {
            try ReplayCommand.parse(["x.json", "--ignore", "authOTT", "--mode", "strict"])
        }
        #expect(try ReplayCommand.parse(["x.json", "--ignore", "authOTT", "--mode", "ignore"]).warnings.isEmpty)
    }

    /// A mistyped subcommand is named with the one it is near, at any depth; what is not near one
    /// is the parser's to report. Before, both got "2 unexpected arguments".
    @Test func aMistypedSubcommandGetsDidYouMean() throws {
        let root = try #require(SubcommandSuggestion.message(for: ["recrod", "authenticate"]))
        #expect(root.contains("'recrod' is not a subcommand of mpin-workbench; did you mean 'record'?"), "\(root)")
        let nested = try #require(SubcommandSuggestion.message(for: ["cassette", "shwo", "x.json"]))
        #expect(nested.contains("of mpin-workbench cassette; did you mean 'show'?"), "\(nested)")
        #expect(SubcommandSuggestion.message(for: ["record", "authenticate"]) == nil)
        #expect(SubcommandSuggestion.message(for: ["replay", "Recordings/"]) == nil)
        #expect(SubcommandSuggestion.message(for: ["zzzzzzzz"]) == nil)
        #expect(SubcommandSuggestion.message(for: ["--version"]) == nil)
        #expect(SubcommandSuggestion.message(for: ["help", "recrod"]) == nil)
        #expect(SubcommandSuggestion.message(for: ["bench", "--runs", "5"]) == nil)
    }

    @Test func anUnknownSuiteGetsDidYouMean() {
        do {
            _ = try VectorsGenerateCommand.parse(["--suite", "paring", "--seed", "s", "--out", "x.json"])
            Issue.record("an unknown suite was accepted")
        } catch {
            #expect(VectorsGenerateCommand.fullMessage(for: error).contains("did you mean pairing?"))
        }
    }
}

/// Shell completion offers the values of every enumerated option and the bundled scenarios' names.
/// Before, `--mode`, `--suite`, `--log-level` and scenario names completed nothing.
@Suite struct CompletionTests {
    @Test func enumeratedOptionsAndScenarioNamesComplete() throws {
        // The bash script lists each option's words one a line: 'strict'$'\n''method-url'...
        let bash = WorkbenchCommand.completionScript(for: .bash).replacingOccurrences(of: "'$'\\n''", with: " ")
        for words in ["trace debug info", "strict method-url json ignore context loose", "mpin-two-pass"] {
            #expect(bash.contains(words), "\(words)")
        }
        let names = ScenarioCommandSupport.completions("authen")
        #expect(names.contains("authenticate"), "\(names)")
        #expect(ScenarioCommandSupport.completions("Scenarios/auth").contains("Scenarios/authenticate.yaml"))
    }
}
