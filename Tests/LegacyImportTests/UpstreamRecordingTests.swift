import Foundation
import MPinCrypto
import OrderedJSON
import ScenarioTestSupport
import TestSupport
import Testing

@testable import FlowRecording
@testable import LegacyImport
@testable import Scenarios

/// The Milagro SDK core's own recording of its unit-test suite (`../shared/interop/upstream-sdk-core/
/// unit_tests_recorded_data.json`, read at test time, never copied in) imports into one cassette per
/// test that sent requests, and every one replays; so do recordings of other runs of the same harness,
/// made here by editing the real one as another run would differ: part of the suite, another order,
/// other users and PINs, another day, a test that failed.
@Suite(
    .serialized,
    .enabled(
        if: upstreamRecording != nil,
        "../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json is absent: the upstream recording's tests are skipped"
    ))
struct UpstreamRecordingTests {
    static let file = upstreamRecording
    static let name = "../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json"

    /// The tests of `tests/unit_tests.cpp` that send requests, in the order the harness ran them.
    static let testsWithExchanges = [
        "testInit", "testBackend", "setBackend", "testUsers1", "testUsers2", "testUsers4", "testUsers5",
        "testRegister1",
        "testRegister2", "testRegister3", "testRegister4", "testAuthenticate1", "testAuthenticate2",
        "testAuthenticateOTP",
        "testAuthenticateAN1", "testAuthenticateAN2",
    ]

    static func importer() throws -> LegacyImporter {
        guard let suite = try RepoPaths.library.suite(named: LegacyImporter.suiteName) else {
            throw HarnessEdit.Problem("no suite description \(LegacyImporter.suiteName) under \(RepoPaths.scenarios)")
        }
        return LegacyImporter(tool: .init(name: "mpin-workbench", version: "0.1.0"), suite: suite)
    }

    static func realBytes() throws -> [UInt8] {
        try CassetteFile.readBytes(try #require(file))
    }

    /// Imports `bytes` and replays every cassette; returns the outcomes by test.
    static func importAndReplay(_ bytes: [UInt8]) async throws -> (LegacyImporter.Outcome, [String: ReplayOutcome]) {
        let outcome = try importer().run(bytes, path: name)
        var replays: [String: ReplayOutcome] = [:]
        for item in outcome.cassettes {
            replays[item.test] = await ScenarioSession.replay(
                item.cassette, path: item.fileName, library: RepoPaths.library)
        }
        return (outcome, replays)
    }

    static func expectAllPass(_ replays: [String: ReplayOutcome], sourceLocation: SourceLocation = #_sourceLocation) {
        for (test, replay) in replays.sorted(by: { $0.key < $1.key }) where !replay.passed {
            Issue.record(Comment(rawValue: "\(test): \(replay.failure ?? "")"), sourceLocation: sourceLocation)
        }
    }

    @Test func everyTestWithExchangesImportsAndReplays() async throws {
        let (outcome, replays) = try await Self.importAndReplay(try Self.realBytes())
        #expect(outcome.suite == LegacyImporter.suiteName)
        #expect(outcome.cassettes.map(\.test) == Self.testsWithExchanges)
        // The 99 exchanges, each in its test's cassette once as its own.
        #expect(outcome.cassettes.map(\.ownExchanges).reduce(0, +) == 99)
        // The SecondAuth contexts belong to testAuthenticate1.
        let first = try #require(outcome.cassettes.first { $0.test == "testAuthenticate1" })
        #expect(first.ownExchanges == 18)
        #expect(first.cassette.replayMode == .context(fresh: ["U", "UT", "V"]))
        Self.expectAllPass(replays)
        let passed = replays.values.filter { $0.passed }.count
        #expect(passed == 16)
    }

    /// Another run of the harness over part of the suite.
    @Test func aPartialRunReplays() async throws {
        let edited = try HarnessEdit(try Self.realBytes()).keeping([
            "testInit", "testAuthenticate2", "testAuthenticateAN1",
        ]).bytes()
        let (outcome, replays) = try await Self.importAndReplay(edited)
        #expect(outcome.cassettes.map(\.test) == ["testInit", "testAuthenticate2", "testAuthenticateAN1"])
        #expect(outcome.cassettes.map(\.setupExchanges) == [0, 1, 1 + 15])
        Self.expectAllPass(replays)
    }

    /// The suite run in another order.
    @Test func anotherOrderReplays() async throws {
        let order = [
            "testInit", "testAuthenticateAN2", "testAuthenticate2", "setBackend", "testUsers4", "testRegister3",
            "testBackend",
            "testAuthenticate1", "testUsers1", "testUsers2", "testUsers5", "testRegister1", "testRegister2",
            "testRegister4",
            "testAuthenticateOTP", "testAuthenticateAN1",
        ]
        let edited = try HarnessEdit(try Self.realBytes()).ordered(order).bytes()
        let (outcome, replays) = try await Self.importAndReplay(edited)
        #expect(outcome.cassettes.map(\.test) == order)
        Self.expectAllPass(replays)
    }

    /// Other users and PINs than upstream's: the import binds the suite's variables to them from
    /// the contexts.
    @Test func otherUsersAndPINsReplay() async throws {
        let edited = try HarnessEdit(try Self.realBytes())
            .renamingUser("testUser", to: "bob.smith")
            .replacingInContexts(["-1234": "-9876", "-1235": "-5555", "-1111": "-2222", "-1233": "-3333"]).bytes()
        let text = String(decoding: edited, as: UTF8.self)
        // Only the test names testUsers1… keep the old id.
        #expect(
            !text.contains("testUser-") && !text.contains("testUser0") && !text.contains("7465737455736572")
                && text.contains("bob.smith-9876@"))
        let (outcome, replays) = try await Self.importAndReplay(edited)
        #expect(outcome.cassettes.count == 16)
        let an2 = try #require(outcome.cassettes.first { $0.test == "testAuthenticateAN2" }).cassette
        let steps = JSONWriter.compact(an2.scenario.script ?? .null)
        #expect(steps.contains("bob.smith-9876-"))
        #expect(steps.replacingOccurrences(of: " ", with: "").contains("\"pin\":\"3333\""))
        #expect(!steps.contains("$user"))
        Self.expectAllPass(replays)
    }

    /// The suite run on another day: the SDK's clock (which names the time-permit day) follows the
    /// recorded answers' dates.
    @Test func anotherDayReplays() async throws {
        let edited = try HarnessEdit(try Self.realBytes())
            .replacingEverywhere([
                "Tue, 11 Oct 2016": "Fri, 14 Oct 2016", "/17085/": "/17088/", "\"date\": 17085": "\"date\": 17088",
                "2016-10-11": "2016-10-14",
            ]).bytes()
        #expect(!String(decoding: edited, as: UTF8.self).contains("17085"))
        let (_, replays) = try await Self.importAndReplay(edited)
        Self.expectAllPass(replays)
    }

    /// A run in which a test failed: the flow replays whole and the replay names the failed
    /// check, as the harness replaying that run would.
    @Test func aFailedTestReplaysWithItsFailedCheck() async throws {
        // The backend of that run answered the third wrong PIN 401 where it blocks the user (410).
        let edited = try HarnessEdit(try Self.realBytes()).settingStatus(
            of: "testUser-1113@testAuthenticate2", path: "/mpinAuthenticate", to: 401
        ).bytes()
        let (_, replays) = try await Self.importAndReplay(edited)
        let replay = try #require(replays["testAuthenticate2"])
        #expect(replay.kind == "expectation")
        #expect(replay.failure?.contains("matched the cassette but the scenario failed") == true)
        #expect(replay.failure?.contains("FinishAuthentication with wrong PIN 3") == true)
        #expect(replay.failure?.contains("expected the user in state BLOCKED, it is REGISTERED") == true)
        let others = replays.filter { $0.key != "testAuthenticate2" }.map(\.value)
        #expect(others.count == 15 && others.allSatisfy { $0.passed })
    }

    /// A replay that misses a recorded exchange, or asks for one the recording does not hold, fails
    /// and names it.
    @Test func aMissingOrForeignExchangeFails() async throws {
        let dropped = try HarnessEdit(try Self.realBytes()).dropping(
            context: "testUser-1234@testAuthenticate1SecondAuth", path: "/rps/pass2"
        ).bytes()
        let (_, replays) = try await Self.importAndReplay(dropped)
        let replay = try #require(replays["testAuthenticate1"])
        #expect(!replay.passed)
        #expect(
            replay.failure?.contains("POST http://10.10.40.62:8005/rps/pass2 testUser-1234@testAuthenticate1SecondAuth")
                == true,
            "\(replay.failure ?? "")")

        // An exchange in a context no call of the suite makes is never asked for.
        let extra = try HarnessEdit(try Self.realBytes())
            .copying(
                context: "testUser-1234@testAuthenticate1SecondAuth", path: "/rps/pass1",
                as: "testUser-1234@testAuthenticate1ThirdAuth"
            ).bytes()
        let (imported, again) = try await Self.importAndReplay(extra)
        #expect(
            imported.notes.contains {
                $0.contains("testAuthenticate1: no step of the suite's testAuthenticate1 has the context of 1 exchange")
            })
        let unused = try #require(again["testAuthenticate1"])
        #expect(
            unused.kind == "unusedEvents" && unused.failure?.contains("1 recorded event unused") == true,
            "\(unused.failure ?? "")")
    }
}

/// The upstream SDK core's recording, nil when `../shared` does not hold it.
let upstreamRecording = RepoPaths.sharedFile("interop/upstream-sdk-core/unit_tests_recorded_data.json")

/// Edits of a harness recording, as another run of the same harness would differ from it.
struct HarnessEdit {
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    var items: [[String: Any]]

    init(_ bytes: [UInt8]) throws {
        guard let items = try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]] else {
            throw Problem("not an array of exchanges")
        }
        self.items = items
    }

    func bytes() throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: items, options: [.prettyPrinted]))
    }

    static func context(_ item: [String: Any]) -> String {
        (item["request"] as? [String: Any])?["context"] as? String ?? ""
    }
    static func test(_ item: [String: Any]) -> String {
        let context = context(item)
        guard let at = context.lastIndex(of: "@") else { return "" }
        let tail = String(context[context.index(after: at)...])
        return tail.hasSuffix("SecondAuth") ? String(tail.dropLast("SecondAuth".count)) : tail
    }

    func keeping(_ tests: Set<String>) -> HarnessEdit {
        var out = self
        out.items = items.filter { tests.contains(Self.test($0)) }
        return out
    }

    func ordered(_ tests: [String]) -> HarnessEdit {
        var out = self
        out.items = tests.flatMap { test in items.filter { Self.test($0) == test } }
        return out
    }

    func dropping(context: String, path: String) -> HarnessEdit {
        var out = self
        out.items = items.filter {
            !(Self.context($0) == context
                && (($0["request"] as? [String: Any])?["url"] as? String ?? "").contains(path))
        }
        return out
    }

    func copying(context: String, path: String, as newContext: String) -> HarnessEdit {
        var out = self
        guard
            let at = items.lastIndex(where: {
                Self.context($0) == context
                    && (($0["request"] as? [String: Any])?["url"] as? String ?? "").hasSuffix(path)
            }),
            var request = items[at]["request"] as? [String: Any]
        else { return out }
        var copy = items[at]
        request["context"] = newContext
        copy["request"] = request
        out.items.insert(copy, at: at + 1)
        return out
    }

    func settingStatus(of context: String, path: String, to status: Int) -> HarnessEdit {
        var out = self
        for index in out.items.indices {
            let url = (out.items[index]["request"] as? [String: Any])?["url"] as? String ?? ""
            guard Self.context(out.items[index]) == context, url.hasSuffix(path),
                var response = out.items[index]["response"] as? [String: Any]
            else { continue }
            response["httpStatus"] = status
            out.items[index]["response"] = response
        }
        return out
    }

    /// The requests of `context` with `old` in their URL replaced by `new`: the harness pointed
    /// that call at another backend.
    func replacingInURLs(of context: String, _ old: String, with new: String) -> HarnessEdit {
        var out = self
        for index in out.items.indices where Self.context(out.items[index]) == context {
            guard var request = out.items[index]["request"] as? [String: Any], let url = request["url"] as? String
            else { continue }
            request["url"] = url.replacingOccurrences(of: old, with: new)
            out.items[index]["request"] = request
        }
        return out
    }

    /// The exchange of `context` and `url` answered by no one: the harness's record of a request
    /// whose transport failed (`success` false, status 0, as the upstream file records one).
    func failingTransport(of context: String, url: String) -> HarnessEdit {
        var out = self
        for index in out.items.indices where Self.context(out.items[index]) == context {
            guard (out.items[index]["request"] as? [String: Any])?["url"] as? String == url else { continue }
            out.items[index]["response"] = [
                "success": false, "error": "Couldn't resolve host name", "httpStatus": 0,
                "headers": [String: String](), "data": "",
            ]
        }
        return out
    }

    /// The recorded answer to the request of `context` whose URL ends with `path` (the first
    /// one), with `old` replaced by `new` in its body: an answer edited after recording.
    func replacingInAnswer(of context: String, path: String, _ old: String, with new: String) throws -> HarnessEdit {
        var out = self
        guard
            let index = out.items.firstIndex(where: {
                Self.context($0) == context
                    && ((($0["request"] as? [String: Any])?["url"] as? String)?.split(separator: "?").first ?? "")
                        .hasSuffix(path)
            }),
            var response = out.items[index]["response"] as? [String: Any], let data = response["data"] as? String,
            data.contains(old)
        else { throw Problem("no answer of \(context) \(path) holds \(old)") }
        response["data"] = data.replacingOccurrences(of: old, with: new)
        out.items[index]["response"] = response
        return out
    }

    func replacingInContexts(_ pairs: [String: String]) -> HarnessEdit {
        var out = self
        for index in out.items.indices {
            guard var request = out.items[index]["request"] as? [String: Any],
                var context = request["context"] as? String
            else { continue }
            for (old, new) in pairs { context = context.replacingOccurrences(of: old, with: new) }
            request["context"] = context
            out.items[index]["request"] = request
        }
        return out
    }

    /// Every string of the file with each pair replaced.
    func replacingEverywhere(_ pairs: [String: String]) -> HarnessEdit {
        func edit(_ value: Any) -> Any {
            if let text = value as? String {
                return pairs.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            }
            if let list = value as? [Any] { return list.map(edit) }
            if let object = value as? [String: Any] { return object.mapValues(edit) }
            return value
        }
        var out = self
        out.items = items.map { edit($0) as! [String: Any] }
        return out
    }

    /// The user id, as text and as the hex of the M-Pin ID's JSON in URLs and bodies; test names
    /// that start with it (`testUsers1`) stay.
    func renamingUser(_ old: String, to new: String) -> HarnessEdit {
        func hex(_ text: String) -> String { Hex.encode(Array(text.utf8)) }
        let kept = "\u{1}"
        return replacingEverywhere(["@" + old + "s": "@" + kept]).replacingEverywhere([old: new, hex(old): hex(new)])
            .replacingEverywhere(["@" + kept: "@" + old + "s"])
    }
}
