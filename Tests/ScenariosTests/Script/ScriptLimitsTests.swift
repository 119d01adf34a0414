import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// No script text can exhaust the stack or the memory, repeat a key unseen, or give a number
/// outside its range: each is an error naming the file, the line and what was wrong.
@Suite struct ScriptLimitsTests {
    func error(_ text: String, file: String = "Scenarios/hostile.yaml") -> ScriptError? {
        do {
            _ = try ScriptParser.parse(text, file: file)
            Issue.record("the script parsed but should not have")
            return nil
        } catch {
            return error
        }
    }

    /// Before: 5,000 levels overflowed the stack in the composer (the process died).
    @Test func nestingDeeperThanTheLimitIsAnErrorNotAStackOverflow() throws {
        for depth in [101, 1_000, 5_000, 100_000] {
            let flow = try #require(
                error(
                    "name: x\nsteps: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                        + "\n"))
            #expect(flow.line == 2 && flow.message.contains("nest deeper than 100 levels"), "\(depth): \(flow)")
            // Block lists nested on one line (`- - - x`).
            let compact = try #require(error("name: x\nsteps:\n  " + String(repeating: "- ", count: depth) + "x\n"))
            #expect(
                compact.line == 3 && compact.message.contains("nest deeper than 100 levels"), "\(depth): \(compact)")
        }
        // Block lists nested by indentation, one level a line.
        var block = "name: x\nsteps:\n"
        for level in 1...1_000 { block += String(repeating: " ", count: level) + "-\n" }
        let blocks = try #require(error(block))
        #expect(blocks.line == 102 && blocks.message.contains("nest deeper than 100 levels"), "\(blocks)")
        let json = try #require(
            error(
                "{\"name\": \"x\", \"steps\": " + String(repeating: "[", count: 5_000)
                    + String(repeating: "]", count: 5_000) + "}",
                file: "Scenarios/deep.json"))
        #expect(json.description.hasPrefix("Scenarios/deep.json:1: mappings and lists nest deeper than 100 levels"))
        // Up to the limit it is only a wrong script.
        let deepest = try #require(
            error("name: x\nsteps: " + String(repeating: "[", count: 99) + String(repeating: "]", count: 99) + "\n"))
        #expect(deepest.message.hasPrefix("a step should be a mapping"))
    }

    /// Before: nine levels of ten aliases each were written out a billion times over (gigabytes).
    @Test func aliasesThatExpandPastTheLimitAreAnError() throws {
        var lines = ["name: x", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let started = ContinuousClock.now
        let laughs = try #require(error((lines + ["steps: []"]).joined(separator: "\n")))
        // Refused before anything is expanded; written out, the aliases would take far longer than
        // this minute (and gigabytes), so only a regression misses it, however busy the machine.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(
            laughs.line == 6 && laughs.message.contains("more than 100000 values once its aliases are written out"),
            "\(laughs)")
        // Few values, but one long scalar written out many times.
        let long = String(repeating: "x", count: 100_000)
        let text =
            "name: x\ndescription: &d \(long)\naliases: [" + Array(repeating: "*d", count: 20).joined(separator: ", ")
            + "]\nsteps: []\n"
        let bytes = try #require(error(text))
        #expect(
            bytes.line == 3
                && bytes.message.contains("more than 1048576 bytes of text once its aliases are written out"),
            "\(bytes)")
        // Aliases within the limits are fine.
        let script = try ScriptParser.parse(
            "name: x\nsteps:\n  - sdk: makeNewUser\n    with: &w {id: alice}\n  - sdk: makeNewUser\n    with: *w\n",
            file: "x.yaml")
        #expect(script.steps.map { $0.argument("id") } == ["alice", "alice"])
    }

    /// Before: the last of two equal keys won silently.
    @Test func duplicateKeysAreAnErrorNamingBothLines() throws {
        let top = try #require(error("name: x\nsteps: []\nname: y\n"))
        #expect(
            top.line == 3
                && top.message == "duplicate key \"name\": it is also given at line 1 of the same mapping; keep one")
        let step = try #require(error("steps:\n  - sdk: makeNewUser\n    with: {id: alice}\n    with: {id: bob}\n"))
        #expect(step.line == 4 && step.message.contains("duplicate key \"with\": it is also given at line 3"))
        let argument = try #require(error("steps:\n  - sdk: makeNewUser\n    with:\n      id: alice\n      id: bob\n"))
        #expect(argument.line == 5 && argument.message.contains("\"id\": it is also given at line 4"))
        let json = try #require(
            error(
                "{\"name\": \"j\",\n \"steps\": [{\"sdk\": \"initialize\"}],\n \"steps\": []}", file: "Scenarios/j.json"
            ))
        #expect(json.description.hasPrefix("Scenarios/j.json:3:2: duplicate key \"steps\": it is also given at line 2"))
        let body = try #require(error("steps:\n  - browser: request\n    with: {path: /x, body: {a: 1, b: 2, a: 3}}\n"))
        #expect(body.line == 3 && body.message.contains("duplicate key \"a\""))
    }

    /// Before: any Int64 passed, and a wait after it overflowed the clock (a trap).
    @Test func startTimeIsWithinTheYears1970To9999() throws {
        for value in ["9223372036854775807", "253402300800000", "-1", "1e400", "soon"] {
            let failure = try #require(error("name: x\nstartTime: \(value)\nsteps: []\n"))
            #expect(
                failure.line == 2
                    && failure.message.hasPrefix(
                        "startTime should be whole milliseconds since 1970 from 0 to 253402300799999"),
                "\(value): \(failure)")
            #expect(failure.message.hasSuffix("found \"\(value)\""))
        }
        #expect(
            try ScriptParser.parse("startTime: 253402300799999\nsteps: []\n", file: "x.yaml").startTime
                == 253_402_300_799_999)
    }

    /// Before: `seconds * 1000` overflowed at run time, huge `attempts` polled forever, and a
    /// `timeout` of 1e30 reached the transport.
    @Test func numericArgumentsAreRangeCheckedWhereTheyAreRead() throws {
        let cases: [(String, String)] = [
            (
                "clock: wait\n    with: {seconds: 9223372036854775807}",
                "seconds should be a whole number from 1 to 315360000"
            ),
            ("clock: wait\n    with: {seconds: 1e400}", "seconds should be a whole number from 1 to 315360000"),
            ("clock: wait\n    with: {seconds: 0}", "seconds should be a whole number from 1 to 315360000"),
            ("clock: wait\n    with: {seconds: -5}", "seconds should be a whole number from 1 to 315360000"),
            (
                "browser: poll\n    with: {webOTT: w, attempts: 9223372036854775807}",
                "attempts should be a whole number from 1 to 1000"
            ),
            (
                "browser: poll\n    with: {webOTT: w, attempts: many}",
                "attempts should be a whole number from 1 to 1000"
            ),
            (
                "device: configure\n    with: {timeout: 1e30}",
                "timeout should be a number of seconds from 0.001 to 3600"
            ),
            ("device: configure\n    with: {timeout: nan}", "timeout should be a number of seconds from 0.001 to 3600"),
            ("device: configure\n    with: {timeout: 0}", "timeout should be a number of seconds from 0.001 to 3600"),
        ]
        for (step, message) in cases {
            let failure = try #require(error("name: x\nsteps:\n  - \(step)\n"))
            #expect(
                failure.line == 4 && failure.stepIndex == 0 && failure.message.hasPrefix(message), "\(step): \(failure)"
            )
        }
        // Variables are checked when the step runs (ScenarioRunnerLimitsTests).
        #expect(
            try ScriptParser.parse("steps:\n  - clock: wait\n    with: {seconds: $later}\n", file: "x.yaml").steps.count
                == 1)
    }

    @Test func aFileLargerThanTheLimitIsRefused() throws {
        let path = TemporaryDirectory.unusedPath("large") + ".yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text =
            "name: x\ndescription: " + String(repeating: "x", count: ScriptLimits.maximumFileBytes) + "\nsteps: []\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try ScriptParser.parse(file: path) } throws: { error in
            (error as? ScriptError)?.description == "\(path): is larger than 1048576 bytes, the most a script may have"
        }
    }

    @Test func everyBundledScriptIsWithinTheLimits() throws {
        let library = RepoPaths.library
        let files = library.files() + library.suiteFiles()
        #expect(files.count > 30)
        for file in files { _ = try ScriptParser.parse(file: file) }
    }
}
