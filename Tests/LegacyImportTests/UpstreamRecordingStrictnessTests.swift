import FlowRecording
import ScenarioTestSupport
import Testing

@testable import LegacyImport

/// Replay mode `context` of the imported upstream recording compares what the client's
/// randomness does not change: a recorded answer edited after recording fails at the request that
/// carried its value, and the report names that answer.
@Suite(
    .serialized,
    .enabled(
        if: upstreamRecording != nil,
        "../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json is absent: the upstream recording's tests are skipped"
    ))
struct UpstreamRecordingStrictnessTests {
    /// The tests that run before testAuthenticate1, whose cassettes hold none of its exchanges.
    static let beforeAuthenticate1 = Array(UpstreamRecordingTests.testsWithExchanges.prefix(11))

    /// The imported cassettes replay in mode `context` with pass 1's and pass 2's points as the
    /// fresh members.
    @Test func theImportNamesTheFreshMembers() throws {
        let outcome = try UpstreamRecordingTests.importer().run(try UpstreamRecordingTests.realBytes(), path: "x.json")
        #expect(outcome.cassettes.allSatisfy { $0.cassette.replayMode == .context(fresh: ["U", "UT", "V"]) })
    }

    /// One byte of the pass-2 authOTT of testAuthenticate1's first login changed: the login that
    /// carries it fails (it replayed 16 of 16 when the mode compared no bodies), and so do the
    /// cassettes that run testAuthenticate1 as setup; the earlier ones pass.
    @Test func aTamperedPass2AuthOTTFailsAtTheLogin() async throws {
        let recorded = "73622ba06df3f5d52e7cb4966c7b5e93", tampered = "73622ba06df3f5d52e7cb4966c7b5e94"
        let edited = try HarnessEdit(try UpstreamRecordingTests.realBytes())
            .replacingInAnswer(of: "testUser-1234@testAuthenticate1", path: "/rps/pass2", recorded, with: tampered)
            .bytes()
        let (_, replays) = try await UpstreamRecordingTests.importAndReplay(edited)
        let replay = try #require(replays["testAuthenticate1"])
        #expect(replay.kind == "requestMismatch", "\(replay.failure ?? "passed")")
        let text = replay.failure ?? ""
        #expect(text.contains("POST http://10.10.40.62:8005/mpinAuthenticate"), "\(text)")
        #expect(
            text.contains(#"body $.mpinResponse.authOTT: expected "\#(recorded)", got "\#(tampered)""#), "\(text)")
        #expect(text.contains("the answer to POST /rps/pass2 at event"), "\(text)")
        #expect(text.contains("testAuthenticate1: FinishAuthentication"), "\(text)")
        let passed = replays.filter(\.value.passed).map(\.key).sorted()
        #expect(passed == Self.beforeAuthenticate1.sorted(), "\(passed)")
    }

    /// The regOTT of testRegister1's registration changed: the signature request carries it in
    /// its query, no recorded key matches, and the report compares it with the recorded one of
    /// its context and names the registration's answer.
    @Test func aTamperedRegOTTFailsAtTheSignatureRequest() async throws {
        let recorded = "dbaffdc18601beb88baa79d3f41efe5f", tampered = "dbaffdc18601beb88baa79d3f41efe5e"
        let edited = try HarnessEdit(try UpstreamRecordingTests.realBytes())
            .replacingInAnswer(of: "testUser--@testRegister1", path: "/rps/user", recorded, with: tampered).bytes()
        let (_, replays) = try await UpstreamRecordingTests.importAndReplay(edited)
        let replay = try #require(replays["testRegister1"])
        #expect(replay.kind == "requestMismatch", "\(replay.failure ?? "passed")")
        let text = replay.failure ?? ""
        #expect(text.contains(#"url query regOTT: expected "\#(recorded)", got "\#(tampered)""#), "\(text)")
        #expect(text.contains("the answer to PUT /rps/user at event"), "\(text)")
        #expect(text.contains("testRegister1: ConfirmRegistration"), "\(text)")
    }
}
