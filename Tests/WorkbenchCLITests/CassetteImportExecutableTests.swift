import Foundation
import TestSupport
import Testing

/// `cassette import` writes its cassettes all or none (issue 33, point 8): a 300-character test
/// name is written under a shortened name, and a cassette that cannot be written leaves nothing of
/// the run in the folder.
@Suite("cassette import files", .enabled(if: WorkbenchProcess.path != nil))
struct CassetteImportExecutableTests {
    /// A recording of 15 tests, the 12th with a name of 300 characters.
    static func recording(longName: String) -> Data {
        let tests = (1...15).map { $0 == 12 ? longName : "test\($0)" }
        let items = tests.map { test in
            #"{ "request" : { "method" : "GET", "url" : "http://127.0.0.1:8005/rps/clientSettings", "data" : "", "context" : "@"#
                + test
                + #"" }, "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{}" } }"#
        }
        return Data(("[\n" + items.joined(separator: ",\n") + "\n]\n").utf8)
    }

    static let longName = "test" + String(repeating: "x", count: 296)

    func importing(into out: String, in directory: String) throws -> WorkbenchProcess.Run {
        let file = directory + "/recorded.json"
        try Self.recording(longName: Self.longName).write(to: URL(fileURLWithPath: file))
        return try WorkbenchProcess.run(
            [
                "cassette", "import", "--format", "milagro-sdk", file, "--out", out,
                "--scenarios", directory + "/no-scenarios",
            ], seconds: 60)
    }

    @Test func aLongNameIsShortenedAndEveryCassetteWritten() throws {
        let directory = try TemporaryDirectory.make("import-long")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try importing(into: directory + "/out", in: directory)
        #expect(run.status == 0, "\(run)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/out")
        #expect(files.count == 15, "\(files)")
        #expect(files.allSatisfy { $0.utf8.count <= 255 })
        #expect(files.contains { $0.hasPrefix("testxxxx") && $0.utf8.count > 200 })
    }

    /// The upstream recording's import says which variables its recording does not show (the PIN
    /// of a test that never logs in with it), in its notes and in the cassettes, which `cassette
    /// show` prints with the members the context replay takes for fresh randomness.
    @Test(
        .enabled(
            if: RepoPaths.hasShared("interop/upstream-sdk-core/unit_tests_recorded_data.json"),
            "../shared/interop/upstream-sdk-core/ is absent: the upstream recording is not imported"))
    func theUpstreamImportSaysWhatItCouldNotBind() throws {
        let directory = try TemporaryDirectory.make("import-unbound")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let imported = try WorkbenchProcess.run(
            [
                "cassette", "import", "--format", "milagro-sdk",
                RepoPaths.shared + "/interop/upstream-sdk-core/unit_tests_recorded_data.json", "--out", directory,
                "--scenarios", RepoPaths.scenarios,
            ], seconds: 120)
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout.contains(
                "not bound from the recording: $pin of testAuthenticate2: no request of testAuthenticate2 shows it"),
            "\(imported.stdout)")
        let shown = try WorkbenchProcess.run(["cassette", "show", directory + "/testAuthenticate2.json"], seconds: 60)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.contains("replays in mode context (fresh randomness in U, UT, V)"), "\(shown.stdout)")
        #expect(
            shown.stdout.contains(#"not bound from the recording: $pin of testRegister1 ("1234" used): "#)
                && shown.stdout.contains(#"not bound from the recording: $pin of testAuthenticate2 ("1234" used): "#),
            "\(shown.stdout)")
    }

    @Test func aCassetteThatCannotBeWrittenLeavesNothingOfTheRun() throws {
        let directory = try TemporaryDirectory.make("import-none")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/out"
        try FileManager.default.createDirectory(atPath: out + "/test13.json", withIntermediateDirectories: true)
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: out + "/test1.json"))
        let run = try importing(into: out, in: directory)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("test13.json") && run.stderr.contains("no cassette written"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["test1.json", "test13.json"])
        #expect(try String(contentsOfFile: out + "/test1.json", encoding: .utf8) == "kept\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["out", "recorded.json"],
            "a staging folder was left")
    }
}
