import ArgumentParser
import TestSupport
import Testing

@testable import WorkbenchCLI

/// The old spellings keep working: each is rewritten to the new one before parsing, with one
/// warning naming the new spelling; the new spellings pass through untouched.
@Suite struct LegacySpellingTests {
    @Test func serveCassetteIsCassetteServe() throws {
        let old = LegacySpelling(["serve", "--cassette", "flow.json", "--port", "0", "--exit-when-done"])
        #expect(old.arguments == ["cassette", "serve", "flow.json", "--port", "0", "--exit-when-done"])
        #expect(old.warnings == ["warning: `serve --cassette FILE` is now `cassette serve FILE`"])
        #expect(
            LegacySpelling(["serve", "--port", "0", "--cassette=flow.json"]).arguments == [
                "cassette", "serve", "flow.json", "--port", "0",
            ])
        let command = try #require(try WorkbenchCommand.parse(commandLine: old.arguments) as? CassetteServeCommand)
        #expect(command.path == "flow.json" && command.exitWhenDone)
        #expect(try WorkbenchCommand.parse(commandLine: ["serve", "--cassette", "flow.json"]) is CassetteServeCommand)
    }

    @Test func serveBenchIsBenchBackendWithOneWarning() throws {
        let old = LegacySpelling([
            "serve", "--bench", "--bench-clients", "1", "2", "--bench-runs", "2", "--bench-authentications", "4",
            "--bench-json",
        ])
        #expect(
            old.arguments == [
                "bench", "backend", "--clients", "1", "2", "--runs", "2", "--authentications", "4", "--json",
            ])
        #expect(old.warnings.count == 1)
        #expect(
            old.warnings.first?.hasPrefix(
                "warning: `serve --bench` is now `bench backend`, `--bench-clients` is `--clients`") == true)
        #expect(old.warnings.first?.contains("`--bench-json` is `--json`") == true)
        let command = try #require(try WorkbenchCommand.parse(commandLine: old.arguments) as? BenchBackendCommand)
        #expect(command.clients == [1, 2] && command.runs == 2 && command.authentications == 4 && command.json)
        // --bench-json stays an alias of --json under bench backend too.
        let alias = LegacySpelling(["bench", "backend", "--bench-json"])
        #expect(alias.arguments == ["bench", "backend", "--json"])
        #expect(alias.warnings == ["warning: `--bench-json` is now `--json`"])
    }

    @Test func serveTimeIsTimeSeconds() throws {
        let old = LegacySpelling(["serve", "--seed", "s", "--time", "1700000000"])
        #expect(old.arguments == ["serve", "--seed", "s", "--time-seconds", "1700000000"])
        #expect(old.warnings == ["warning: `--time` is now `--time-seconds`"])
        #expect(LegacySpelling(["serve", "--time=5"]).arguments == ["serve", "--time-seconds=5"])
        let command = try #require(try WorkbenchCommand.parse(commandLine: old.arguments) as? ServeCommand)
        #expect(command.time == 1_700_000_000)
    }

    @Test func redactFieldAndDefaultsAreRedact() throws {
        let old = LegacySpelling([
            "cassette", "redact", "flow.json", "--field", "regOTT", "--defaults", "--field", "authOTT",
        ])
        #expect(
            old.arguments == [
                "cassette", "redact", "flow.json", "--redact", "regOTT", "--redact", "default", "--redact", "authOTT",
            ])
        #expect(
            old.warnings == ["warning: `--field` is now `--redact`", "warning: `--defaults` is now `--redact default`"])
        let command = try #require(try WorkbenchCommand.parse(commandLine: old.arguments) as? CassetteRedactCommand)
        #expect(command.redact == ["regOTT", "default", "authOTT"])
        #expect(command.fields == ["regOTT", "authOTT"])
    }

    @Test func newSpellingsPassUntouched() {
        for arguments in [
            ["cassette", "serve", "flow.json"], ["bench", "backend", "--json"], ["serve", "--time-seconds", "5"],
            ["cassette", "redact", "flow.json", "--redact", "default"],
            ["record", "authenticate", "--redact", "default"],
            ["bench", "--json"], [], ["replay", "--field"],
        ] {
            let spelling = LegacySpelling(arguments)
            #expect(spelling.arguments == arguments && spelling.warnings.isEmpty, "\(arguments)")
        }
    }

    @Test("the old spellings run, warn once on standard error and do what the new ones do")
    func executableWarnsOnce() throws {
        let old = try WorkbenchProcess.run(["serve", "--bench", "--bench-runs", "0"])
        #expect(old.status == 2, "\(old)")
        #expect(
            old.stderr.hasPrefix("warning: `serve --bench` is now `bench backend`, `--bench-runs` is `--runs`\n"),
            "\(old.stderr)")
        #expect(old.stderr.components(separatedBy: "warning:").count == 2, "\(old.stderr)")
        #expect(old.stderr.contains("'--runs <runs>': must be an integer from 1 to 1000"), "\(old.stderr)")
    }
}
