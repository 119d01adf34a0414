import Foundation
import TestSupport
import Testing

/// The `mpin-workbench` executable on hostile input and flags, run as a child process because
/// before these limits each case stopped the process (a trap, a stack overflow) or never ended:
/// now each exits with a clear message (status 2 for an unreadable input, 1 for lint problems, 64
/// for a flag out of range). Skipped when the executable was not built.
@Suite(.enabled(if: WorkbenchProcess.path != nil))
struct WorkbenchLimitsExecutableTests {

    /// A one-exchange cassette whose response has `status` and whose exchange has `timings` members.
    static func cassette(status: String = "200", timings: String = "") -> String {
        #"{"formatVersion": 1, "tool": {"name": "mpin-workbench", "version": "0.1.0"}, "curve": "BN254CX", "scenario": {"name": "s"},"#
            + #" "backend": {"url": "http://127.0.0.1:8005", "flavour": "milagro"}, "events": [{"type": "http", "actor": "sdk","#
            + #" "request": {"method": "GET", "url": "http://127.0.0.1:8005/rps/clientSettings", "headers": [], "body": {"text": ""}},"#
            + #" "response": {"status": "# + status + #", "headers": [], "body": {"text": "{}", "json": {}}}"# + timings
            + "}]}\n"
    }

    /// Before: `serve --cassette` started and died (SIGILL) on the first request; `lint` said ok.
    @Test func aStatusOutsideThreeDigitsIsRefusedByServeAndLint() throws {
        let folder = try TemporaryDirectory.make("workbench-limits")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/status.json"
        try Self.cassette(status: "1000").write(toFile: path, atomically: true, encoding: .utf8)
        let served = try WorkbenchProcess.run(
            ["cassette", "serve", path, "--port", "0", "--exit-when-done"], seconds: 30)
        #expect(served.exited && served.status == 2, "\(served)")
        #expect(
            served.stderr.contains("\(path): event 0, field response.status: 1000 is not an HTTP status (100 to 999)"))
        let linted = try WorkbenchProcess.run(["cassette", "lint", path])
        #expect(linted.exited && linted.status == 1)
        #expect(
            linted.stdout.contains("\(path): event 0, field response.status: 1000 is not an HTTP status (100 to 999)"))
    }

    /// Before: `cassette show` and `diff` trapped turning 1e19 seconds into milliseconds.
    @Test func aTimingOf1e19IsRefusedByShowAndDiff() throws {
        let folder = try TemporaryDirectory.make("workbench-limits")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/timing.json", plain = folder + "/plain.json"
        let timings =
            #", "timings": {"dns": 0, "connect": 0, "tls": 0, "requestSent": 0, "firstByte": 0, "total": 1e19}"#
        try Self.cassette(timings: timings).write(toFile: path, atomically: true, encoding: .utf8)
        try Self.cassette().write(toFile: plain, atomically: true, encoding: .utf8)
        for arguments in [["cassette", "show", path], ["cassette", "diff", plain, path]] {
            let result = try WorkbenchProcess.run(arguments)
            #expect(result.exited && result.status == 2, "\(arguments): \(result)")
            #expect(
                result.stderr.contains("event 0, field timings.total: 1e19 is not a duration from 0 to 86400 seconds"),
                "\(result.stderr)")
        }
    }

    /// Before: 5,000 levels overflowed the stack, and nine levels of aliases grew to gigabytes.
    @Test func deepOrExplodingScriptsAreRefused() throws {
        let folder = try TemporaryDirectory.make("workbench-limits")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deep = folder + "/deep.yaml", laughs = folder + "/laughs.yaml"
        try ("name: x\nsteps: " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n")
            .write(toFile: deep, atomically: true, encoding: .utf8)
        var lines = ["name: x", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        try (lines + ["steps: []", ""]).joined(separator: "\n").write(toFile: laughs, atomically: true, encoding: .utf8)
        let nested = try WorkbenchProcess.run(["run", deep], seconds: 30)
        #expect(nested.exited && nested.status == 2, "\(nested)")
        #expect(nested.stderr.contains("\(deep):2: mappings and lists nest deeper than 100 levels here"))
        let exploded = try WorkbenchProcess.run(["run", laughs], seconds: 30)
        #expect(exploded.exited && exploded.status == 2, "\(exploded)")
        #expect(
            exploded.stderr.contains(
                "\(laughs):6: the script holds more than 100000 values once its aliases are written out"))
    }

    /// Before: `serve --time=99999999999999999` trapped making it milliseconds, `bench --runs` with
    /// Int.max trapped reserving its samples, `--bench 0` was ignored. Each option's range is part of
    /// its declaration (`BoundedNumber`).
    @Test func numericFlagsOutOfRangeSayTheRange() throws {
        let cases: [([String], String)] = [
            (
                ["serve", "--time-seconds=99999999999999999"],
                "The value '99999999999999999' is invalid for '--time-seconds <seconds>': must be an integer from 0 to 253402300799 seconds since 1970"
            ),
            (
                ["serve", "--time", "-1"],
                "The value '-1' is invalid for '--time-seconds <seconds>': must be an integer from 0 to 253402300799"
            ),
            (
                ["bench", "backend", "--runs", "9223372036854775807"],
                "The value '9223372036854775807' is invalid for '--runs <runs>': must be an integer from 1 to 1000"
            ),
            (
                ["bench", "--runs", "9223372036854775807"],
                "The value '9223372036854775807' is invalid for '--runs <runs>': must be an integer from 1 to 100000"
            ),
            (
                ["replay", "Recordings/authenticate.json", "--bench", "0"],
                "The value '0' is invalid for '--bench <bench>': must be an integer from 1 to 1000"
            ),
            (
                ["record", "Scenarios/authenticate.yaml", "--bench", "100000"],
                "The value '100000' is invalid for '--bench <bench>': must be an integer from 1 to 1000"
            ),
            (
                ["vectors", "bench", "--count", "9223372036854775807"],
                "The value '9223372036854775807' is invalid for '--count <count>': must be an integer from 1 to 10000"
            ),
        ]
        for (arguments, message) in cases {
            let result = try WorkbenchProcess.run(arguments, seconds: 30)
            #expect(result.exited && result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
