import FlowRecording
import OrderedJSON
import ScenarioTestSupport
import Testing

@testable import LegacyImport

/// Runs of the upstream harness that differ from the shared one where the importer binds the
/// suite's variables: a run against one server (the harness's "other backend" the main one), a
/// run whose `testBackend` got no answer, a run with other PINs. Each is made here by editing the
/// shared recording (`../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json`) as that
/// run would differ; each test's variables come from its own exchanges, and what they cannot
/// give is written in the cassette.
@Suite(
    .serialized,
    .enabled(
        if: upstreamRecording != nil,
        "../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json is absent: the upstream recording's tests are skipped"
    ))
struct UpstreamRunBindingTests {
    static let main = "http://10.10.40.62:8005"
    static let other = "https://m-pindemo.certivox.org"
    static let unreachable = "https://blabla.certivox.org"

    static func cassette(_ outcome: LegacyImporter.Outcome, _ test: String) throws -> Cassette {
        try #require(outcome.cassettes.first { $0.test == test }).cassette
    }

    /// The `with` arguments of the script's steps whose names end with `name`.
    static func arguments(_ cassette: Cassette, step name: String) -> [[String: String]] {
        (cassette.scenario.script?["steps"]?.arrayValue ?? []).filter {
            $0["name"]?.stringValue?.hasSuffix(name) == true
        }.map { step in
            (step["with"]?.objectMembers ?? []).reduce(into: [:]) { $0[$1.name] = $1.value.stringValue ?? "" }
        }
    }

    /// The harness pointed its "other backend" at the main one: `testBackend` asks the main
    /// backend, with its own context, and its variable is bound to that URL (the import used to
    /// skip a settings base equal to the main backend: `unknown variable $otherBackend`, 1 of 16).
    @Test func aRunAgainstOneServerReplays() async throws {
        let edited = try HarnessEdit(try UpstreamRecordingTests.realBytes())
            .replacingInURLs(of: "@testBackend", Self.other, with: Self.main).bytes()
        let (outcome, replays) = try await UpstreamRecordingTests.importAndReplay(edited)
        let testBackend = try Self.cassette(outcome, "testBackend")
        #expect(
            Self.arguments(testBackend, step: "TestBackend another backend") == [["url": Self.main]],
            "\(Self.arguments(testBackend, step: "TestBackend another backend"))")
        #expect(testBackend.origin?.unbound == [])
        UpstreamRecordingTests.expectAllPass(replays)
        #expect(replays.values.filter(\.passed).count == 16)
    }

    /// The "other backend" got no answer (the transport failed, as for any host the machine
    /// cannot reach): the variable is still that backend's, so every cassette replays its
    /// exchanges; testBackend's own reports the check that failed in that run, as the harness did.
    @Test func aRunWhoseTestBackendGotNoAnswerReplays() async throws {
        let edited = try HarnessEdit(try UpstreamRecordingTests.realBytes())
            .failingTransport(of: "@testBackend", url: Self.other + "/rps/clientSettings").bytes()
        let (outcome, replays) = try await UpstreamRecordingTests.importAndReplay(edited)
        let testBackend = try Self.cassette(outcome, "testBackend")
        #expect(Self.arguments(testBackend, step: "TestBackend another backend") == [["url": Self.other]])
        #expect(
            Self.arguments(testBackend, step: "TestBackend an unreachable backend")
                == [["url": Self.unreachable]])
        let own = try #require(replays["testBackend"])
        #expect(own.kind == "expectation", "\(own.failure ?? "")")
        #expect(own.failure?.contains("TestBackend another backend") == true, "\(own.failure ?? "")")
        let others = replays.filter { $0.key != "testBackend" }
        UpstreamRecordingTests.expectAllPass(others)
        #expect(others.count == 15)
    }

    /// Both backends of `testBackend` unreachable, and `setBackend`'s too, as on a machine that
    /// reaches only the main backend.
    @Test func aRunWithOnlyTheMainBackendReachableReplays() async throws {
        let edited = try HarnessEdit(try UpstreamRecordingTests.realBytes())
            .failingTransport(of: "@testBackend", url: Self.other + "/rps/clientSettings")
            .replacingInURLs(of: "@setBackend", Self.unreachable, with: "https://unreachable.example")
            .bytes()
        let (outcome, replays) = try await UpstreamRecordingTests.importAndReplay(edited)
        let setBackend = try Self.cassette(outcome, "setBackend")
        #expect(
            Self.arguments(setBackend, step: "SetBackend an unreachable backend")
                == [["url": "https://unreachable.example"]])
        let others = replays.filter { $0.key != "testBackend" }
        UpstreamRecordingTests.expectAllPass(others)
        #expect(others.count == 15)
    }

    /// A run with other PINs: a test whose requests name the PIN binds it (its FinishRegistration
    /// registers with it); a test whose requests never name it (testRegister1 logs in never,
    /// testAuthenticate2 only with wrong PINs) keeps the suite's default, and its cassette, and
    /// those that run it as setup, say so and why.
    @Test func aPINNoRequestShowsIsWrittenAsUnbound() async throws {
        let edited = try HarnessEdit(try UpstreamRecordingTests.realBytes())
            .replacingInContexts(["-1234": "-9876", "-1111": "-2222"]).bytes()
        let (outcome, replays) = try await UpstreamRecordingTests.importAndReplay(edited)
        let first = try Self.cassette(outcome, "testAuthenticate1")
        #expect(
            Self.arguments(first, step: "testAuthenticate1: FinishRegistration") == [
                ["user": "testUser", "pin": "9876"]
            ])
        let register1 = try Self.cassette(outcome, "testRegister1")
        let pin = try #require(register1.origin?.unbound.first { $0.test == "testRegister1" })
        #expect(pin.variable == "pin" && pin.value == "1234", "\(pin)")
        #expect(pin.reason.contains("testRegister1: FinishRegistration"), "\(pin.reason)")
        #expect(pin.reason.contains("no request of testRegister1 shows it"), "\(pin.reason)")
        let second = try Self.cassette(outcome, "testAuthenticate2")
        #expect(
            second.origin?.unbound.map { "\($0.test ?? "") $\($0.variable)" } == [
                "testRegister1 $pin", "testAuthenticate2 $pin",
            ], "\(second.origin?.unbound ?? [])")
        #expect(!(second.origin?.unbound.contains { $0.test == "testAuthenticate1" } ?? true))
        #expect(
            outcome.notes.contains { $0.contains("not bound from the recording: $pin of testAuthenticate2") },
            "\(outcome.notes)")
        // Read back from the file's text, the cassette says the same.
        let read = try CassetteFile.decode(Array(second.canonicalText.utf8))
        #expect(read.origin == second.origin)
        UpstreamRecordingTests.expectAllPass(replays)
    }
}
