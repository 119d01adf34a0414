import FlowRecording
import Foundation
import MPinSDK
import ReferenceBackend
import TestSupport
import Testing

@testable import WorkbenchTesting

/// `withCassette`: records a missing cassette against the embedded backend, replays it offline,
/// and fails with the replayer's report when the re-run or the cassette changed.
@Suite struct WithCassetteTests {
    /// Records `login` into `folder` and returns the cassette file and what the flow returned.
    private func recordLogin(in folder: String, name: String = "login") async throws -> (
        path: String, result: FlowResult?
    ) {
        nonisolated(unsafe) var result: FlowResult?
        nonisolated(unsafe) var recording = false
        try await withCassette(name, record: .missing, directory: folder) { session in
            recording = session.isRecording
            result = try await registerAndLogIn(session)
        }
        #expect(recording)
        return (folder + "/\(name).json", result)
    }

    @Test func recordsAMissingCassetteThenReplaysItOffline() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, recorded) = try await recordLogin(in: folder)
        #expect(recorded == FlowResult(state: "REGISTERED", authResultData: recorded?.authResultData ?? ""))
        let cassette = try CassetteFile.read(path)
        #expect(cassette.scenario.name == "login")
        #expect(cassette.backend == .init(url: "http://127.0.0.1:8005", flavour: "milagro", embedded: true))
        let urls = cassette.httpExchanges.map { URL(string: $0.exchange.request.url)?.path ?? "" }
        #expect(urls.contains("/rps/pass1") && urls.contains("/rps/pass2") && urls.contains("/mpinAuthenticate"))
        #expect(
            cassette.events.contains {
                if case .crypto(let step) = $0.payload { step.primitive == "client2" } else { false }
            })
        #expect(cassette.events.contains { $0.step == ScenarioStep(index: 2, name: "log in") })

        // Replay: no backend runs (the one of the recording was stopped); a backend URL that
        // nothing answers would fail the test if anything were sent.
        nonisolated(unsafe) var replayed: FlowResult?
        try await withCassette("login", record: .never, backend: .url("http://127.0.0.1:1"), directory: folder) {
            session in
            #expect(!session.isRecording)
            #expect(session.transport is ReplayTransport)
            #expect(session.backendURL == "http://127.0.0.1:8005")
            replayed = try await registerAndLogIn(session)
        }
        #expect(replayed == recorded)
    }

    @Test func recordingTwiceWithTheSameSeedGivesTheSameBytes() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, _) = try await recordLogin(in: folder)
        let first = try Data(contentsOf: URL(fileURLWithPath: path))
        try await withCassette("login", record: .all, directory: folder) { session in
            #expect(session.isRecording)
            try await registerAndLogIn(session)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == first)
        try await withCassette("login", record: .all, seed: "other", directory: folder) { session in
            try await registerAndLogIn(session)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != first)
    }

    /// Against a live backend (the reference backend on loopback, not the embedded one) the SDK
    /// draws from the system's generator: two recordings share no draw and name no seed, and each
    /// replays from its own draws.
    @Test func aLiveBackendGetsTheSystemsGenerator() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let backend = try await ReferenceBackend.start(BackendConfiguration())
        var draws: [Set<String>] = []
        for name in ["live-1", "live-2"] {
            try await withCassette(name, record: .all, backend: .url(backend.baseURL), directory: folder) { session in
                try await registerAndLogIn(session)
            }
            let cassette = try CassetteFile.read(folder + "/\(name).json")
            #expect(cassette.scenario.seed == nil && !cassette.backend.embedded)
            draws.append(
                Set(
                    cassette.events.compactMap { event -> String? in
                        if case .random(let draw) = event.payload { return draw.hex }
                        return nil
                    }))
            try await withCassette(name, record: .never, backend: .url("http://127.0.0.1:1"), directory: folder) {
                session in
                try await registerAndLogIn(session)
            }
        }
        await backend.stop()
        #expect(!draws[0].isEmpty && draws[0].isDisjoint(with: draws[1]))
    }

    @Test func neverWithoutACassetteFailsAndRunsNothing() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        nonisolated(unsafe) var ran = false
        try await withKnownIssue {
            try await withCassette("absent", record: .never, directory: folder) { _ in ran = true }
        } matching: { issue in
            text(of: issue).hasPrefix(
                "no cassette at \(folder)/absent.json; record it with MPIN_WORKBENCH_RECORD=missing "
                    + "swift test --filter 'neverWithoutACassetteFailsAndRunsNothing'")
        }
        #expect(!ran)
        #expect(!FileManager.default.fileExists(atPath: folder + "/absent.json"))
    }

    @Test func aTamperedRequestFailsNamingTheEventAndTheField() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, _) = try await recordLogin(in: folder)
        var cassette = try CassetteFile.read(path)
        // Flip one hex digit of U in the recorded pass-1 request: the re-run sends the true one.
        let (index, exchange) = try #require(
            cassette.httpExchanges.first { $0.exchange.request.url.hasSuffix("/rps/pass1") })
        var body = try #require(String(validating: exchange.request.body, as: UTF8.self))
        let value = try #require(body.range(of: "\"U\" : \"04"))
        let digit = body.index(value.upperBound, offsetBy: 0)
        body.replaceSubrange(digit...digit, with: body[digit] == "0" ? "1" : "0")
        var tampered = exchange
        tampered.request.body = Array(body.utf8)
        cassette.events[index].payload = .http(tampered)
        try CassetteFile.write(cassette, to: path)

        try await withKnownIssue {
            try await withCassette("login", record: .missing, directory: folder) { session in
                #expect(!session.isRecording)
                try await registerAndLogIn(session)
            }
        } matching: { issue in
            let report = text(of: issue)
            return report.hasPrefix(
                "\(path): replay (strict) diverged at event \(index) (sdk, step 2 \"log in\", in the call "
                    + "finishAuthentication): the request differs from the recorded one")
                && report.contains("body $.U: expected")
                && report.contains(
                    "MPIN_WORKBENCH_RECORD=all swift test --filter 'aTamperedRequestFailsNamingTheEventAndTheField'")
                && report.contains("the test then threw")
        }
    }

    @Test func eventsLeftOverFailTheTest() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, _) = try await recordLogin(in: folder)
        let count = try CassetteFile.read(path).events.count
        try await withKnownIssue {
            try await withCassette("login", record: .missing, directory: folder) { session in
                let sdk = session.makeClient()
                try await sdk.initialize(configuration: ["backend": session.backendURL])
            }
        } matching: { issue in
            let report = text(of: issue)
            return report.contains("replay (strict) diverged at event ") && report.contains("recorded events unused")
                && !report.contains("event \(count)")
        }
    }

    @Test func aRequestBeyondTheCassetteFails() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await recordLogin(in: folder)
        try await withKnownIssue {
            try await withCassette("login", record: .missing, directory: folder) { session in
                try await registerAndLogIn(session)
                let again = session.makeClient()
                try await again.initialize(configuration: ["backend": session.backendURL])
            }
        } matching: { issue in
            text(of: issue).contains("the re-run went on after the last of the")
        }
    }

    @Test func anotherPINIsACallMismatch() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await recordLogin(in: folder)
        try await withKnownIssue {
            try await withCassette("login", record: .missing, directory: folder) { session in
                try await registerAndLogIn(session, pin: "9999")
            }
        } matching: { issue in
            let report = text(of: issue)
            return report.contains("diverged at event") && report.contains("step 2 \"log in\"")
        }
    }

    @Test func anUnreadableCassetteIsReportedWithItsLine() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/broken.json"
        try Data("{\n  \"formatVersion\": 1,\n  oops\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        nonisolated(unsafe) var ran = false
        try await withKnownIssue {
            try await withCassette("broken", record: .missing, directory: folder) { _ in ran = true }
        } matching: { issue in
            let report = text(of: issue)
            return report.hasPrefix(path + ":3:") && report.contains("not valid JSON")
                && report.contains("MPIN_WORKBENCH_RECORD=all swift test")
        }
        #expect(!ran)
    }

    @Test func aFailedRecordingWritesNothing() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await withCassette("stopped", record: .missing, directory: folder) { session in
                let sdk = session.makeClient()
                try await sdk.initialize(configuration: ["backend": session.backendURL])
                throw Stop()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/stopped.json"))
    }

    @Test func namesBecomeSafeFileNames() async throws {
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withCassette("../../escape me", record: .missing, directory: folder) { session in
            #expect(session.path == folder + "/______escape_me.json")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/______escape_me.json"))
    }

    @Test func theDefaultFolderIsNextToTheTestFile() {
        #expect(
            CassetteRunner.defaultDirectory(forTestFile: "/src/Tests/AppTests/LoginTests.swift")
                == "/src/Tests/AppTests/__Cassettes__/LoginTests")
    }
}
