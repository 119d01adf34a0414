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
