import FlowRecording
import Foundation
import Testing

/// Runs `body` against the cassette `name`, for XCTest (and for Swift Testing tests that need more
/// than one cassette, or one per case of a parameterized test).
///
/// ```swift
/// final class LoginTests: XCTestCase {
///     func testLogin() async throws {
///         try await withCassette("login") { session in
///             let sdk = session.makeClient()
///             try await sdk.initialize(configuration: ["backend": session.backendURL])
///             ...
///         }
///     }
/// }
/// ```
///
/// The cassette is `<folder of the calling file>/__Cassettes__/<calling file name>/<name>.json`;
/// it is replayed offline when it exists and recorded when it is missing or `record` is `all`
/// (see `CassetteTrait` for the rest). A test that fails while recording (a failing issue or
/// XCTest failure, or a thrown error) writes nothing and keeps its old cassette, with a note saying
/// so. A divergence fails the test with the report ahead of the failures that follow from it
/// (`DivergenceWatch`): under Swift Testing at the first of them, else at the call; under XCTest
/// an `XCTFail` at the call when the re-run diverges. The flow the re-run produced is written
/// beside the cassette (`<name>.produced.json`) for `mpin-workbench cassette diff`. A missing
/// cassette under `never` fails the test at the call. Under XCTest the note of a recording goes
/// to standard error.
///
/// - Parameters:
///   - name: the cassette's name; the file is `<name>.json`, the name made a safe file name.
///   - record: `never`, `missing`, `all` or `failed`; nil: `MPIN_WORKBENCH_RECORD`, else `never` when `CI` is
///     set, else `missing`.
///   - backend: what to record against (default: the embedded reference backend, which the test
///     target records against when it links `WorkbenchTestingEmbedded`).
///   - seed: the seed of the SDK's randomness while recording: by default `workbench` on the
///     embedded backend and the system's cryptographic generator against a live one (a seed given
///     there makes every draw, and so the client secret, follow from it: for a test backend only).
///   - matching: the replay mode; nil: strict.
///   - directory: the folder of the cassette instead of `__Cassettes__/<file name>` next to the file.
///   - fileID: the calling file's ID, where a failure is reported (leave the default).
///   - filePath: the calling file's path: the cassette's folder is found from it (leave the default).
///   - line: the line a failure is reported at (leave the default).
///   - column: the column a failure is reported at (leave the default).
///   - function: the calling function, whose name the re-record hint filters on (leave the default).
///   - body: the test's code, given the cassette session.
/// - Throws: what `body` throws (unless the replay diverged: the divergence is reported then);
///   `CassetteTestError` for a record mode in the environment that is not one, a backend that does
///   not start (or a recording against the embedded one in a test target without
///   `WorkbenchTestingEmbedded`) or a cassette that cannot be written.
public func withCassette(
    _ name: String, record: CassetteRecordMode? = nil, backend: CassetteBackend = .embedded,
    seed: String? = nil, matching: ReplayMode? = nil, directory: String? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    function: String = #function,
    _ body: (CassetteSession) async throws -> Void
) async throws {
    let path = "\(filePath)"
    let location = SourceLocation(fileID: fileID, filePath: path, line: Int(line), column: Int(column))
    let mode = try record ?? CassetteRecordMode.fromEnvironment(ProcessInfo.processInfo.environment)
    let runner = CassetteRunner(
        name: name, directory: directory ?? CassetteRunner.defaultDirectory(forTestFile: path),
        record: mode, backend: backend, seed: seed, matching: matching,
        testFilter: CassetteTrait.functionName(function),
        place: .init(location: location, file: filePath, line: line))
    try await CassetteReporter.withWarningsKnown {
        let outcome = try await runner.run(body)
        try CassetteReporter.report(outcome, at: location, file: filePath, line: line)
    }
}
