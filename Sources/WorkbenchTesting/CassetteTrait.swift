import FlowRecording
import Foundation
import Testing

/// The Swift Testing trait `.cassette(...)`: the test runs against its cassette, which lives next
/// to the test file, and finds its session in `CassetteSession.current`.
///
/// ```swift
/// @Test(.cassette("login")) func login() async throws {
///     let session = try #require(CassetteSession.current)
///     let sdk = session.makeClient()
///     try await sdk.initialize(configuration: ["backend": session.backendURL])
///     ...
/// }
/// ```
///
/// The cassette is `<test file's folder>/__Cassettes__/<test file name>/<name>.json`. When it
/// exists the test replays it offline (strict: every request, API result, crypto step, random draw
/// and clock read as recorded, none left over); when it is missing, or the record mode is `all`,
/// the test runs against the backend (the embedded reference backend by default) and writes it.
/// A divergence fails the test with the replayer's report, ahead of the failures that follow from
/// it (`DivergenceWatch`: where the test first noticed it, else at the test's source location),
/// and the flow the re-run produced is written beside the cassette (`<name>.produced.json`) for
/// `mpin-workbench cassette diff`. A test
/// that fails while recording (a failing issue, or an error thrown) writes nothing: its old
/// cassette is kept, and a warning says so.
public struct CassetteTrait: TestTrait, TestScoping {
    /// The cassette's name; nil: the test function's name.
    public var name: String?
    /// The record mode; nil: from the environment (see `CassetteRecordMode`).
    public var record: CassetteRecordMode?
    public var backend: CassetteBackend
    /// The seed of the SDK's random source (and of the embedded backend) when recording: nil for
    /// `workbench` on the embedded backend and the system's generator against a live one.
    public var seed: String?
    /// How strictly to match on replay; nil: strict (or the cassette's own mode).
    public var matching: ReplayMode?
    /// The folder of the cassette; nil: `__Cassettes__/<test file name>` next to the test file.
    public var directory: String?

    public init(
        name: String?, record: CassetteRecordMode?, backend: CassetteBackend, seed: String?, matching: ReplayMode?,
        directory: String?
    ) {
        self.name = name
        self.record = record
        self.backend = backend
        self.seed = seed
        self.matching = matching
        self.directory = directory
    }

    /// Runs the test inside its cassette session.
    ///
    /// - Throws: what the test throws; `CassetteTestError` for a record mode in the environment that
    ///   is not one, a parameterized test (its cases would share one cassette), a backend that does
    ///   not start or a cassette that cannot be written.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let testName = Self.functionName(test.name)
        if testCase?.isParameterized == true {
            throw CassetteTestError(
                "\(testName): the .cassette trait cannot serve a parameterized test (its cases would share "
                    + "one cassette); call withCassette(\"name-per-case\") { session in ... } inside the test instead")
        }
        let mode = try record ?? CassetteRecordMode.fromEnvironment(ProcessInfo.processInfo.environment)
        let location = test.sourceLocation
        let runner = CassetteRunner(
            name: name ?? testName,
            directory: directory ?? CassetteRunner.defaultDirectory(forTestFile: location.filePath),
            record: mode, backend: backend, seed: seed, matching: matching, testFilter: testName,
            place: .init(location: location, file: #filePath, line: #line))
        try await CassetteReporter.withWarningsKnown {
            let outcome = try await runner.run { session in
                try await CassetteSession.$current.withValue(session) { try await function() }
            }
            if let failure = outcome.failure { Issue.record(Comment(rawValue: failure), sourceLocation: location) }
            if let consequence = outcome.consequence {
                Issue.record(Comment(rawValue: consequence), sourceLocation: location)
            }
            if let notice = outcome.notice { CassetteReporter.note(notice, at: location) }
            if let thrown = outcome.thrown { throw thrown }
        }
    }

    /// `login` of `login()`.
    static func functionName(_ name: String) -> String {
        String(name.prefix { $0 != "(" })
    }
}

extension Trait where Self == CassetteTrait {
    /// Runs the test against the cassette `name` (default: the test function's name): replayed
    /// offline when it exists, recorded when it is missing or `record` says `all`.
    ///
    /// - Parameters:
    ///   - name: the cassette's name; the file is `<name>.json`, the name made a safe file name.
    ///   - record: `never`, `missing`, `all` or `failed`; nil: `MPIN_WORKBENCH_RECORD`, else `never` when `CI`
    ///     is set, else `missing`.
    ///   - backend: what to record against (default: the embedded reference backend, which the test
    ///     target records against when it links `WorkbenchTestingEmbedded`).
    ///   - seed: the seed of the SDK's randomness while recording: by default `workbench` on the
    ///     embedded backend and the system's cryptographic generator against a live one (a seed
    ///     given there makes every draw, and so the client secret, follow from it: for a test backend only).
    ///   - matching: the replay mode; nil: strict.
    ///   - directory: the folder of the cassette instead of `__Cassettes__/<test file name>` next to
    ///     the test file (tests of the trait itself use a temporary folder).
    public static func cassette(
        _ name: String? = nil, record: CassetteRecordMode? = nil, backend: CassetteBackend = .embedded,
        seed: String? = nil, matching: ReplayMode? = nil, directory: String? = nil
    ) -> Self {
        CassetteTrait(
            name: name, record: record, backend: backend, seed: seed, matching: matching, directory: directory)
    }
}
