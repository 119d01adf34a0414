import Foundation
import TestSupport
import Testing

/// `--junit FILE` of `replay`, `vectors verify`, `run` and `serve --cassette` through the executable:
/// the report is parsed back with `XMLParser` and its counts, names and failure texts compared with
/// what the command printed (skipped when the executable was not built).
@Suite("mpin-workbench --junit", .enabled(if: WorkbenchProcess.path != nil))
struct JUnitExecutableTests {
    /// A scenario whose last step's name has markup, quotes and a control byte (YAML's `\x01`);
    /// it passes when the user is expected ACTIVATED and fails when expected REGISTERED.
    static func script(expecting state: String) -> String {
        """
        name: junit
        steps:
          - sdk: initialize
            with: {backend: $backend}
          - sdk: makeNewUser
            with: {id: frank}
          - name: "register <&>\\"' \\x01 frank"
            sdk: startRegistration
            with: {user: frank}
            expect: {state: \(state)}

        """
    }

    /// The one-exchange cassette of the limits tests, answering GET /rps/clientSettings.
    static let cassette = WorkbenchLimitsExecutableTests.cassette()

    func parse(_ path: String) throws -> JUnitXML {
        try JUnitXML(contentsOf: path)
    }

    func counts(_ element: JUnitXML.Element) -> [String?] {
        [element["tests"], element["failures"], element["errors"]]
    }

    // MARK: - replay

    @Test func replayReportsOneTestcasePerCassetteWithTheDivergenceReport() throws {
        let directory = try TemporaryDirectory.make("junit-replay")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let passing = RepoPaths.path("Recordings/otp.json")
        let tampered = directory + "/tampered.json"
        var text = try String(contentsOfFile: passing, encoding: .utf8)
        #expect(text.components(separatedBy: "8005/rps/user\"").count == 2)
        text = text.replacingOccurrences(of: "8005/rps/user\"", with: "8005/rps/users\"")
        try text.write(toFile: tampered, atomically: true, encoding: .utf8)
        // An unreadable cassette whose name (and so its error) has markup, quotes and a control byte.
        let unreadable = directory + "/bad <&>\"'\u{01}.json"
        try "not json".write(toFile: unreadable, atomically: true, encoding: .utf8)
        let report = directory + "/replay.xml"

        let result = try WorkbenchProcess.run(["replay", passing, tampered, unreadable, "--junit", report])
        // An unreadable cassette exits 2 even beside a failing one, as on every command.
        #expect(result.status == 2, "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["3", "1", "1"])
        let suite = try #require(parsed.suites.first)
        #expect(suite["name"] == "replay" && counts(suite) == ["3", "1", "1"])
        let cases = parsed.testCases
        try #require(cases.count == 3)
        #expect(cases.map { $0["name"] ?? "" } == [passing, tampered, directory + "/bad <&>\"'\\u{1}.json"])
        #expect(cases.allSatisfy { $0["classname"] == "replay" && $0["time"]?.contains(".") == true })
        #expect(cases[0].children.isEmpty)

        let failure = try #require(cases[1].child("failure"))
        #expect(failure["type"] == "requestMismatch")
        #expect(
            failure["message"]
                == "\(tampered): replay (strict) diverged at event 3 (sdk, step 2 \"sdk startRegistration\", in the call "
                + "startRegistration): the request differs from the recorded one")
        #expect(
            failure.text.contains("url: expected http://127.0.0.1:8005/rps/users, got http://127.0.0.1:8005/rps/user"))
        // Exactly the report the command printed after FAIL.
        #expect(result.stdout.contains("FAIL " + failure.text + "\n"), "\(failure.text)")

        let error = try #require(cases[2].child("error"))
        #expect(error["type"]?.hasPrefix("cassette: ") == true)
        #expect(error["message"] == error.text)
        #expect(error.text.hasPrefix(directory + "/bad <&>\"'\\u{1}.json:1:1: not valid JSON"), "\(error.text)")
        #expect(result.stdout.contains("FAIL " + directory + "/bad <&>\"'\u{01}.json:1:1: not valid JSON"))
        #expect(cases[2].child("failure") == nil)
    }

    @Test func replayOfPassingCassettesReportsNoFailureAndExitsZero() throws {
        let directory = try TemporaryDirectory.make("junit-replay")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/replay.xml"
        let cassettes = ["Recordings/otp.json", "Recordings/register-auto.json"]
        let result = try WorkbenchProcess.run(["replay"] + cassettes + ["--junit", report])
        #expect(result.status == 0, "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["2", "0", "0"])
        #expect(parsed.testCases.map { $0["name"] ?? "" } == cassettes)
        #expect(parsed.testCases.allSatisfy { $0.children.isEmpty })
    }

    @Test func anUnwritableReportPathIsAnErrorNamingItBeforeAnyWork() throws {
        let directory = try TemporaryDirectory.make("junit-replay")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/no/such/folder/replay.xml"
        let result = try WorkbenchProcess.run(["replay", "Recordings/otp.json", "--junit", report])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: --junit: \(report): "), "\(result.stderr)")
        #expect(result.stderr.contains("No such file or directory"))
        #expect(!result.stdout.contains("PASS"))
        // A directory is refused and left as it was.
        let vectors = try TemporaryDirectory.make("junit-vectors-input")
        defer { try? FileManager.default.removeItem(atPath: vectors) }
        let passing = try VectorFixtures.twoPass(in: vectors).passing
        let folder = try WorkbenchProcess.run(["vectors", "verify", passing, "--junit", directory])
        #expect(folder.status == 2, "\(folder)")
        #expect(folder.stderr.contains("error: --junit: \(directory): "), "\(folder.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    // MARK: - vectors verify

    @Test func vectorsVerifyReportsEachGroupAndFileWithTheFailingFields() throws {
        let directory = try TemporaryDirectory.make("junit-vectors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let suite = directory + "/access-number.json"
        var text = try String(contentsOfFile: RepoPaths.path("Vectors/generated/access-number.json"), encoding: .utf8)
        let original = try #require(text.range(of: "\"CHECK_DIGIT\": 4,"))
        text.replaceSubrange(original, with: "\"CHECK_DIGIT\": 3,")
        try text.write(toFile: suite, atomically: true, encoding: .utf8)
        let twoPass = try VectorFixtures.twoPass(in: directory)
        let flipped = twoPass.flipped
        let passing = twoPass.passing
        let malformed = VectorFixtures.path("malformed_line.txt")
        let report = directory + "/vectors.xml"

        let result = try WorkbenchProcess.run([
            "vectors", "verify", passing, flipped, suite, malformed, "--junit", report,
        ])
        #expect(result.status == 2, "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["6", "2", "1"])
        #expect(parsed.suites.first?["name"] == "vectors verify")
        let cases = parsed.testCases
        try #require(cases.count == 6)
        #expect(cases.map { $0["classname"] ?? "" } == [passing, flipped, suite, suite, suite, malformed])
        #expect(
            cases.map { $0["name"] ?? "" } == [
                "all vectors", "all vectors",
                "group 1 AccessNumberTest (accessNumberDigits=7, accessNumberUseCheckSum=true)",
                "group 2 AccessNumberTest (accessNumberDigits=7, accessNumberUseCheckSum=false)",
                "group 3 AccessNumberTest (accessNumberDigits=6, accessNumberUseCheckSum=true)",
                "reading the file",
            ])
        #expect(cases.map { $0.children.map(\.name) } == [[], ["failure"], ["failure"], [], [], ["error"]])

        let amcl = try #require(cases[1].child("failure"))
        #expect(amcl["message"] == "\(flipped): 2 passed, 1 failed")
        #expect(amcl.text.contains("CS1 (line \(twoPass.cs1Line))\n"))
        #expect(
            amcl.text.contains("expected: \(twoPass.writtenCS1)")
                && amcl.text.contains("actual:   \(twoPass.computedCS1)"))

        let group = try #require(cases[2].child("failure"))
        let expected = """
            group 1 AccessNumberTest (accessNumberDigits=7, accessNumberUseCheckSum=true): 46 passed, 1 failed
              FAIL tcId 1 (line 70): 1 of 1 fields
                CHECK_DIGIT (line 64)
                  expected: 3
                  actual:   4
            """
        #expect(group.text == expected)
        #expect(
            group["message"]
                == "group 1 AccessNumberTest (accessNumberDigits=7, accessNumberUseCheckSum=true): 46 passed, 1 failed")
        // The same lines as printed, two spaces further in under the file's line.
        let printed = expected.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        #expect(result.stdout.contains(printed), "\(result.stdout)")

        let error = try #require(cases[5].child("error"))
        #expect(error["message"]?.hasPrefix("\(malformed):4:") == true, "\(error)")
        #expect(result.stderr.contains("error: " + error.text))
    }

    @Test func vectorsVerifyOfPassingFilesWritesTheReportAndExitsZero() throws {
        let directory = try TemporaryDirectory.make("junit-vectors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/vectors.xml"
        let result = try WorkbenchProcess.run([
            "vectors", "verify", RepoPaths.path("Vectors/generated/access-number.json"), "--junit", report,
        ])
        #expect(result.status == 0, "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["3", "0", "0"])
        #expect(parsed.testCases.allSatisfy { $0.children.isEmpty })
    }

    // MARK: - run

    @Test func runReportsTheScenarioWithItsStepsOrItsFailure() throws {
        let directory = try TemporaryDirectory.make("junit-run")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let passing = directory + "/passes.yaml", failing = directory + "/fails.yaml"
        try Self.script(expecting: "ACTIVATED").write(toFile: passing, atomically: true, encoding: .utf8)
        try Self.script(expecting: "REGISTERED").write(toFile: failing, atomically: true, encoding: .utf8)
        let report = directory + "/run.xml"

        let passed = try WorkbenchProcess.run(["run", passing, "--junit", report])
        #expect(passed.status == 0, "\(passed)")
        var parsed = try parse(report)
        #expect(counts(parsed.root) == ["1", "0", "0"])
        #expect(parsed.suites.first?["name"] == "run")
        var testCase = try #require(parsed.testCases.first)
        #expect(testCase["name"] == passing && testCase["classname"] == "run")
        let output = try #require(testCase.child("system-out"))
        #expect(output.text.hasSuffix("junit: 3 steps passed"))
        #expect(output.text.contains("step 2 register <&>\"' \\u{1} frank: OK, user ACTIVATED"), "\(output.text)")

        let failed = try WorkbenchProcess.run(["run", failing, "--junit", report])
        #expect(failed.status == 1, "\(failed)")
        parsed = try parse(report)
        #expect(counts(parsed.root) == ["1", "1", "0"])
        testCase = try #require(parsed.testCases.first)
        let failure = try #require(testCase.child("failure"))
        let message =
            "\(failing):10: step 2 \"register <&>\"' \u{01} frank\": expected the user in state REGISTERED, it is ACTIVATED"
        #expect(failed.stderr.contains("error: " + message + "\n"), "\(failed.stderr)")
        let shown = message.replacingOccurrences(of: "\u{01}", with: "\\u{1}")
        #expect(failure.text == shown)
        #expect(failure["message"] == shown)

        let missing = try WorkbenchProcess.run(["run", directory + "/none.yaml", "--junit", report])
        #expect(missing.status == 2, "\(missing)")
        parsed = try parse(report)
        #expect(counts(parsed.root) == ["1", "0", "1"])
        let error = try #require(parsed.testCases.first?.child("error"))
        #expect(error.text.hasPrefix(directory + "/none.yaml"))
        #expect(missing.stderr.contains("error: " + error.text))
    }

    // MARK: - cassette serve

    /// Starts `cassette serve` in the background, waits (at most 30 s) for its banner, then runs
    /// `then` (shell commands with `$url` the served origin and `$pid` the server) and waits for it
    /// to end; prints `exit N`.
    func serve(_ cassette: String, report: String, options: String = "", then commands: String) throws
        -> WorkbenchProcess.Run
    {
        let out = report + ".out"
        let shell = """
            command -v curl >/dev/null || { echo 'curl is needed'; exit 97; }
            "$WORKBENCH" cassette serve '\(cassette)' --port 0 \(options) --junit '\(report)' > '\(out)' 2>&1 &
            pid=$!
            i=0
            while ! grep -q 'backend (SDK setting)' '\(out)' && kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do i=$((i+1)); sleep 0.05; done
            url=$(sed -n 's/^  backend (SDK setting): //p' '\(out)')
            \(commands)
            wait $pid
            echo "exit $?"
            cat '\(out)'
            """
        return try WorkbenchProcess.run(shell: shell, seconds: 60)
    }

    @Test func serveReportsTheCassettePassedWhenEveryExchangeWasServed() throws {
        let directory = try TemporaryDirectory.make("junit-serve")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cassette = directory + "/one.json", report = directory + "/serve.xml"
        try Self.cassette.write(toFile: cassette, atomically: true, encoding: .utf8)
        let result = try serve(
            cassette, report: report, options: "--exit-when-done",
            then: "curl -s -o /dev/null --max-time 10 \"$url/rps/clientSettings\"")
        #expect(result.stdout.hasPrefix("exit 0\n"), "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["1", "0", "0"])
        #expect(parsed.suites.first?["name"] == "cassette serve")
        let testCase = try #require(parsed.testCases.first)
        #expect(testCase["name"] == cassette && testCase["classname"] == "serve")
        #expect(testCase.children.isEmpty)
    }

    @Test func serveReportsTheSummaryAsTheFailureWhenAnExchangeWasNeverAskedFor() throws {
        let directory = try TemporaryDirectory.make("junit-serve")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cassette = directory + "/one.json", report = directory + "/serve.xml"
        try Self.cassette.write(toFile: cassette, atomically: true, encoding: .utf8)
        let result = try serve(
            cassette, report: report,
            then: "curl -s -o /dev/null --max-time 10 \"$url/rps/nothing-here\"; kill -TERM $pid")
        #expect(result.stdout.hasPrefix("exit 1\n"), "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["1", "1", "0"])
        let failure = try #require(parsed.testCases.first?.child("failure"))
        #expect(failure["message"] == "served 0 of 1 recorded exchanges, 0 repeats, 1 unmatched request")
        #expect(failure.text.contains("requests that matched nothing:\n  "))
        #expect(failure.text.contains("/rps/nothing-here"), "\(failure.text)")
        #expect(
            failure.text.contains("recorded exchanges never asked for:\n  event 0 (sdk): GET /rps/clientSettings"),
            "\(failure.text)")
        // The summary exactly as the command printed it.
        #expect(result.stdout.contains(failure.text + "\n"), "\(result.stdout)")
    }

    @Test func serveReportsAnUnreadableCassetteAsAnError() throws {
        let directory = try TemporaryDirectory.make("junit-serve")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cassette = directory + "/status.json", report = directory + "/serve.xml"
        try WorkbenchLimitsExecutableTests.cassette(status: "1000").write(
            toFile: cassette, atomically: true, encoding: .utf8)
        let result = try WorkbenchProcess.run(
            ["cassette", "serve", cassette, "--port", "0", "--exit-when-done", "--junit", report],
            seconds: 30)
        #expect(result.exited && result.status == 2, "\(result)")
        let parsed = try parse(report)
        #expect(counts(parsed.root) == ["1", "0", "1"])
        let error = try #require(parsed.testCases.first?.child("error"))
        #expect(error.text == "\(cassette): event 0, field response.status: 1000 is not an HTTP status (100 to 999)")
        #expect(result.stderr.contains("error: " + error.text + "\n"))

        // The old spelling still serves, with its warning.
        let old = try WorkbenchProcess.run(
            ["serve", "--cassette", cassette, "--port", "0", "--exit-when-done", "--junit", report], seconds: 30)
        #expect(old.exited && old.status == 2, "\(old)")
        #expect(
            old.stderr.hasPrefix("warning: `serve --cassette FILE` is now `cassette serve FILE`\n"), "\(old.stderr)")
        #expect(old.stderr.contains("error: " + error.text + "\n"))

        let noCassette = try WorkbenchProcess.run(["serve", "--junit", report])
        #expect(noCassette.status == 2, "\(noCassette)")
        #expect(noCassette.stderr.contains("Unknown option '--junit'"))
    }
}
