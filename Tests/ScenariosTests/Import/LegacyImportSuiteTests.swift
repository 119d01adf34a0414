@testable import FlowRecording
import Foundation
import OrderedJSON
import Scenarios
import TestSupport
import Testing

/// A recording of the whole upstream unit-test suite in one run over one SDK instance
/// (`Fixtures/milagro-sdk-unit-tests.json`, built the way the real `unit_tests_recorded_data.json`
/// is) imports into one cassette per test of the suite, each with the earlier tests as a setup
/// prelude, and every one of them replays.
@Suite(.serialized) struct LegacyImportSuiteTests {
    static let fixture = RepoPaths.root + "/Tests/ScenariosTests/Fixtures/milagro-sdk-unit-tests.json"
    static let fixtureName = "Tests/ScenariosTests/Fixtures/milagro-sdk-unit-tests.json"
    static let main = LegacyImportHarnessTransport.main

    /// The tests of PROTOCOL §9, in the order the harness runs them.
    static let upstreamTests = [
        "testNoInit", "testInit", "testBackend", "setBackend", "testUsers1", "testUsers2", "testUsers3", "testUsers4", "testUsers5",
        "testRegister1", "testRegister2", "testRegister3", "testRegister4", "testAuthenticate1", "testAuthenticate2",
        "testAuthenticateOTP", "testAuthenticateAN1", "testAuthenticateAN2",
    ]

    static func suite() throws -> LegacySuite {
        guard let suite = try RepoPaths.library.suite(named: LegacyImporter.suiteName) else {
            throw HarnessError("no suite description \(LegacyImporter.suiteName) under \(RepoPaths.scenarios)")
        }
        return suite
    }

    static func recording() throws -> LegacyRecording {
        try LegacyRecording.parse(try CassetteFile.readBytes(fixture), path: fixtureName)
    }

    static func imported() throws -> LegacyImporter.Outcome {
        let importer = LegacyImporter(tool: .init(name: "mpin-workbench", version: "0.1.0"), suite: try suite())
        return try importer.run(try CassetteFile.readBytes(fixture), path: fixtureName)
    }

    /// The committed fixture is what the generator records today. Regenerate it with
    /// `MPIN_WORKBENCH_WRITE_FIXTURES=1` (see Fixtures/README.md).
    @Test func fixtureIsWhatTheHarnessRecords() async throws {
        let bytes = try await LegacyImportHarness.record()
        if ProcessInfo.processInfo.environment["MPIN_WORKBENCH_WRITE_FIXTURES"] == "1" {
            try Data(bytes).write(to: URL(fileURLWithPath: Self.fixture), options: .atomic)
        }
        #expect(bytes == (try CassetteFile.readBytes(Self.fixture)),
                "\(Self.fixtureName) is stale: MPIN_WORKBENCH_WRITE_FIXTURES=1 swift test -c release -Xswiftc -enable-testing --filter ScenariosTests.LegacyImportSuiteTests")
    }

    @Test func suiteDescriptionHoldsTheUpstreamTestsInOrder() throws {
        let suite = try Self.suite()
        #expect(suite.tests.map(\.name) == Self.upstreamTests)
        #expect(suite.tests.allSatisfy { !$0.steps.isEmpty })
    }

    /// The fixture has the shape of the real file: one run, tests without init of their own, the
    /// other hosts, the transport failure, D-TA 2 and the storage elsewhere, the AN write order.
    @Test func fixtureHasTheShapeOfTheRealFile() throws {
        let recording = try Self.recording()
        let exchanges = recording.exchanges
        #expect((95...103).contains(exchanges.count), "\(exchanges.count) exchanges")
        let named = exchanges.filter(\.namesTest)
        var seen: [String] = []
        for exchange in named where seen.last != exchange.test { seen.append(exchange.test) }
        #expect(seen == Self.upstreamTests.filter { $0 != "testNoInit" && $0 != "testUsers3" }, "tests in the file: \(seen)")
        // With the empty contexts as a name of their own, as a count of distinct context tails gives.
        #expect(Set(exchanges.map { $0.context.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? "" }).count == 17)

        let settings = exchanges.filter { $0.method == "GET" && $0.url == Self.main + "/rps/clientSettings" }
        #expect(settings.map(\.test) == ["testInit", "setBackend"])

        let others = exchanges.filter { ["testBackend", "setBackend"].contains($0.test) && !$0.url.hasPrefix(Self.main) }
        #expect(others.count == 4)
        #expect(others.filter { $0.exchange.response?.status == 200 }.map(\.url)
                == Array(repeating: LegacyImportHarnessTransport.otherBackend + "/rps/clientSettings", count: 2))
        let failed = others.filter { $0.exchange.error != nil }
        #expect(failed.count == 2)
        for exchange in failed {
            #expect(exchange.url == LegacyImportHarnessTransport.unreachableBackend + "/rps/clientSettings")
            #expect(exchange.exchange.error?.message == LegacyImportHarnessTransport.unresolvedHost)
        }

        let dta2 = exchanges.filter { $0.url.hasPrefix(LegacyImportHarnessTransport.dta2) }
        #expect(dta2.contains { $0.url.hasPrefix(LegacyImportHarnessTransport.dta2 + "clientSecret?") })
        let storage = exchanges.enumerated().filter { $0.element.url.hasPrefix(LegacyImportHarnessTransport.storage + "/") }
        #expect(!storage.isEmpty)
        for (position, exchange) in storage {
            #expect(exchange.exchange.response?.status == 404)
            #expect(exchanges[position + 1].url.hasPrefix(LegacyImportHarnessTransport.dta2 + "timePermit?"), "after \(exchange.url)")
        }

        // The phone's held login is written after the browser's poll and login that released it.
        let an1 = exchanges.filter { $0.test == "testAuthenticateAN1" }
        let paths = an1.map { ($0.context.isEmpty ? "browser " : "sdk ") + $0.method + " " + $0.path }
        #expect(paths.suffix(4) == ["browser POST /rps/accessnumber", "browser POST /mpinAuthenticate", "sdk POST /rps/authenticate",
                                    "sdk POST /logout"], "\(paths)")
        #expect(an1.filter { $0.context.isEmpty }.map(\.path)
                == ["/rps/getAccessNumber", "/rps/accessnumber", "/rps/accessnumber", "/rps/accessnumber", "/mpinAuthenticate"])
        #expect(an1.filter { !$0.namesTest }.count == 5 && exchanges.filter { $0.test == "testAuthenticateAN2" && !$0.namesTest }.count == 1)
        for exchange in exchanges where exchange.exchange.response != nil && !exchange.url.hasPrefix(LegacyImportHarnessTransport.storage) {
            #expect(exchange.exchange.response?.headers["Server"] == "TornadoServer/4.1", "\(exchange.url)")
        }
    }

    @Test func importGivesEveryTestOfTheSuiteWithItsPrelude() throws {
        let outcome = try Self.imported()
        let recording = try Self.recording()
        #expect(outcome.suite == LegacyImporter.suiteName)
        #expect(outcome.cassettes.map(\.test) == Self.upstreamTests)
        var before = 0
        for item in outcome.cassettes {
            let own = recording.exchanges.filter { $0.test == item.test }.count
            #expect(item.ownExchanges == own && item.setupExchanges == before, "\(item.test)")
            #expect(item.cassette.events.count == before + own)
            #expect(item.cassette.replayMode == .methodURL && item.cassette.backend.url == Self.main)
            #expect(item.cassette.origin == .init(format: "milagro-sdk", file: Self.fixtureName, test: item.test))
            let setup = item.cassette.events.prefix(before)
            #expect(setup.allSatisfy { $0.step?.name.hasPrefix(LegacySuite.setupPrefix) == true }, "\(item.test)")
            #expect(item.cassette.events.dropFirst(before).allSatisfy { $0.step?.name == item.test }, "\(item.test)")
            let steps = item.cassette.scenario.script?["steps"]?.arrayValue ?? []
            let setupSteps = steps.filter { $0["name"]?.stringValue?.hasPrefix(LegacySuite.setupPrefix) == true }
            #expect(steps.count - setupSteps.count == (try Self.suite()).tests.first { $0.name == item.test }?.steps.count)
            before += own
        }
        #expect(before == recording.exchanges.count)
        #expect(outcome.cassettes.first { $0.test == "testNoInit" }?.cassette.events.isEmpty == true)
        #expect(outcome.cassettes.first { $0.test == "testUsers3" }?.ownExchanges == 0)
        // The other backends are filled in from the recording.
        let testBackend = try #require(outcome.cassettes.first { $0.test == "testBackend" }).cassette
        let text = JSONWriter.compact(try #require(testBackend.scenario.script))
        #expect(text.contains(LegacyImportHarnessTransport.otherBackend) && text.contains(LegacyImportHarnessTransport.unreachableBackend))
        #expect(!text.contains("$otherBackend") && !text.contains("$unreachableBackend"))
    }

    @Test func accessNumberTestsGetTheBrowserActorAndTheHeldLoginWhereItWasSent() throws {
        let outcome = try Self.imported()
        let an1 = try #require(outcome.cassettes.first { $0.test == "testAuthenticateAN1" })
        let own = an1.cassette.events.dropFirst(an1.setupExchanges).map { event -> String in
            guard case .http(let exchange) = event.payload else { return "?" }
            return "\(event.actor) \(exchange.request.method) \(URLText.path(exchange.request.url))"
        }
        #expect(own == ["browser POST /rps/getAccessNumber", "browser POST /rps/accessnumber", "browser POST /rps/accessnumber",
                        "sdk GET /rps/timePermit/" + Self.lastSegment(an1.cassette, path: "/rps/timePermit/"),
                        "sdk POST /rps/pass1", "sdk POST /rps/pass2", "sdk POST /rps/authenticate",
                        "browser POST /rps/accessnumber", "browser POST /mpinAuthenticate", "sdk POST /logout"])
        #expect(outcome.notes.filter { $0.contains("testAuthenticateAN1: the phone's POST /rps/authenticate") }.count == 1, "\(outcome.notes)")
        #expect(outcome.notes.count == 1, "\(outcome.notes)")
        // Elsewhere /mpinAuthenticate is the SDK's own.
        let auth1 = try #require(outcome.cassettes.first { $0.test == "testAuthenticate1" })
        #expect(auth1.cassette.events.dropFirst(auth1.setupExchanges).allSatisfy { $0.actor == .sdk })
        let an2 = try #require(outcome.cassettes.first { $0.test == "testAuthenticateAN2" })
        #expect(an2.cassette.events.dropFirst(an2.setupExchanges).map(\.actor) == [.browser] + Array(repeating: .sdk, count: 8))
    }

    static func lastSegment(_ cassette: Cassette, path: String) -> String {
        for (_, exchange) in cassette.httpExchanges.reversed() where URLText.path(exchange.request.url).hasPrefix(path) {
            return String(URLText.path(exchange.request.url).dropFirst(path.count))
        }
        return ""
    }

    @Test(arguments: upstreamTests)
    func importedTestReplays(_ test: String) async throws {
        let item = try #require(try Self.imported().cassettes.first { $0.test == test })
        let outcome = await ScenarioSession.replay(item.cassette, path: item.fileName, library: RepoPaths.library)
        #expect(outcome.passed, "\(outcome)")
        #expect(outcome.events == item.setupExchanges + item.ownExchanges)
    }

    /// A cassette cut down to the test's own exchanges (what importing a test on its own gives)
    /// fails at the first setup request, and the report names the setup step.
    @Test func withoutItsPreludeATestFailsAtTheFirstSetupStep() async throws {
        var item = try #require(try Self.imported().cassettes.first { $0.test == "testAuthenticate1" })
        #expect(item.setupExchanges > 0)
        item.cassette.events.removeFirst(item.setupExchanges)
        let outcome = await ScenarioSession.replay(item.cassette, path: "testAuthenticate1.json", library: RepoPaths.library)
        let failure = try #require(outcome.failure)
        #expect(outcome.kind == "requestMismatch", "\(failure)")
        #expect(failure.contains("setup testInit"), "\(failure)")
        #expect(failure.contains("GET \(Self.main)/rps/clientSettings"), "\(failure)")
    }

    /// The test's own steps without the earlier tests' (the SDK never initialised, no user made)
    /// stop at the first step that needs them, and every recorded exchange is reported unused.
    @Test func withoutItsSetupStepsATestFailsAtItsFirstStep() async throws {
        var item = try #require(try Self.imported().cassettes.first { $0.test == "testAuthenticate1" })
        guard case .object(let members) = try #require(item.cassette.scenario.script) else { Issue.record("no script"); return }
        item.cassette.scenario.script = .object(members.map { member in
            guard member.name == "steps", let steps = member.value.arrayValue else { return member }
            return .init("steps", .array(steps.filter { $0["name"]?.stringValue?.hasPrefix(LegacySuite.setupPrefix) != true }))
        })
        let outcome = await ScenarioSession.replay(item.cassette, path: "testAuthenticate1.json", library: RepoPaths.library)
        let failure = try #require(outcome.failure)
        #expect(outcome.kind == "unusedEvents", "\(failure)")
        #expect(failure.contains("no user \"testUser\" in this run"), "\(failure)")
        #expect(failure.contains("recorded events unused"), "\(failure)")
    }

    /// The small made-up sample (PROTOCOL's examples) has tests that stand alone, and two that are
    /// not tests of the suite: each test is imported on its own, with a note for those that use
    /// the backend without initialising it.
    @Test func standaloneTestsAreImportedOnTheirOwn() async throws {
        let sample = #"""
        [
          { "request" : { "method" : "GET", "url" : "http://127.0.0.1:8005/rps/clientSettings", "data" : "", "context" : "@testInit" },
            "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{\"mpinAuthServerURL\": \"/rps\"}" } },
          { "request" : { "method" : "GET", "url" : "https://unreachable.example/rps/clientSettings", "data" : "", "context" : "@testBackend" },
            "response" : { "success" : false, "error" : "Couldn't resolve host name", "httpStatus" : 0, "headers" : {}, "data" : "" } },
          { "request" : { "method" : "PUT", "url" : "http://127.0.0.1:8005/rps/user", "data" : "", "context" : "alice@example.com--@testRegister" },
            "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{}" } }
        ]
        """#
        let importer = LegacyImporter(tool: .init(name: "mpin-workbench", version: "0.1.0"), suite: try Self.suite())
        let outcome = try importer.run(Array(sample.utf8), path: "sample.json")
        #expect(outcome.suite == nil)
        #expect(outcome.cassettes.map(\.test) == ["testInit", "testBackend", "testRegister"])
        #expect(outcome.cassettes.allSatisfy { $0.setupExchanges == 0 && $0.cassette.scenario.script == nil })
        #expect(outcome.notes.count == 1 && outcome.notes[0].contains("testRegister uses the backend without asking for its client settings"),
                "\(outcome.notes)")
        for item in outcome.cassettes.prefix(2) {
            let replayed = await ScenarioSession.replay(item.cassette, path: item.fileName, library: RepoPaths.library)
            #expect(replayed.passed, "\(replayed)")
        }
    }

    @Test func numbersOutOfRangeNameTheLineAndField() {
        let file = "[\n  { \"request\" : { \"method\" : \"GET\", \"url\" : \"http://h/rps/clientSettings\", \"context\" : \"@testInit\" },\n"
            + "    \"response\" : { \"success\" : true,\n      \"httpStatus\" : 2000, \"headers\" : {}, \"data\" : \"\" } }\n]"
        #expect { try LegacyRecording.parse(Array(file.utf8), path: "r.json") } throws: { error in
            (error as? LegacyImporter.ImportError)?.description
                == "r.json:4: exchange 0: response.httpStatus 2000 is not an HTTP status (100 to 599) though response.success is true"
        }
        #expect { try LegacyRecording.parse(Array(file.replacing("2000", with: "-1").utf8), path: "r.json") } throws: { error in
            (error as? LegacyImporter.ImportError)?.description
                == "r.json:4: exchange 0: response.httpStatus -1 is not an HTTP status (100 to 599) though response.success is true"
        }
        let failed = file.replacing("\"success\" : true", with: "\"success\" : false").replacing("2000", with: "503")
        #expect { try LegacyRecording.parse(Array(failed.utf8), path: "r.json") } throws: { error in
            (error as? LegacyImporter.ImportError)?.description
                == "r.json:4: exchange 0: response.httpStatus is 503 though response.success is false (a transport failure has 0)"
        }
    }
}
