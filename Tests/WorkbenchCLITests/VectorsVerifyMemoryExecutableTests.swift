import Foundation
import TestSupport
import Testing

/// `vectors verify` stays bounded on a file of many failing vectors (issue 26, point 7): at most
/// `VectorReportPrinter.shownPerFile` failing vectors are printed per file, the rest counted, and
/// the memory does not grow with what is not printed.
@Suite("vectors verify on many failing vectors", .enabled(if: WorkbenchProcess.path != nil))
struct VectorsVerifyMemoryExecutableTests {
    /// A one-pass JSON list of `count` entries with only a time value: every one fails.
    static func failingFile(count: Int, in directory: String) throws -> String {
        let path = directory + "/many.json"
        let text = "[\n" + Array(repeating: #"{"TimeValue": 5}"#, count: count).joined(separator: ",\n") + "\n]\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("the details printed are capped, and the summary counts every vector")
    func capped() throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.failingFile(count: 1_000, in: directory)
        let result = try WorkbenchProcess.run(["vectors", "verify", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(path): 0 passed, 1000 failed"))
        #expect(result.stdout.components(separatedBy: "  FAIL entry").count - 1 == 100, "\(result.stdout.prefix(300))")
        #expect(result.stdout.contains("  ... 900 more failing vectors not shown (at most 100 a file)"))
    }

    /// Measured with `/usr/bin/time` (skipped without it): 100,000 failing vectors took 757 MB and
    /// printed 103 MB before the cap.
    @Test("100,000 failing vectors stay under 200 MB and print under 200 KB",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time measures the peak memory"))
    func boundedMemory() throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.failingFile(count: 100_000, in: directory)
        let result = try WorkbenchProcess.run(
            shell: "/usr/bin/time -f 'maxrss %M' \"$WORKBENCH\" vectors verify '\(path)' > '\(directory)/out.txt'", seconds: 300)
        #expect(result.status == 1, "\(result)")
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss ") })
        let kilobytes = try #require(Int(line.dropFirst("maxrss ".count)))
        #expect(kilobytes < 200_000, "peak memory \(kilobytes) KB")
        let printed = try FileManager.default.attributesOfItem(atPath: directory + "/out.txt")[.size] as? Int ?? .max
        #expect(printed < 200_000, "printed \(printed) bytes")
    }

    /// One of the workbench's own files with 1,000 tests that fail and break its structure: at most
    /// 100 failing tests and 100 structure problems are printed (all 1,000 of each were before).
    @Test("a suite file's failing tests and structure problems are capped alike")
    func suiteFileCapped() async throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/suite.json"
        let generated = try WorkbenchProcess.run(["vectors", "generate", "--suite", "pin-mapping", "--count", "1", "--seed", "m",
                                                  "--out", path])
        #expect(generated.status == 0, "\(generated)")
        var root = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var groups = try #require(root["testGroups"] as? [[String: Any]])
        let test = try #require((groups[0]["tests"] as? [[String: Any]])?.first)
        groups[0]["tests"] = (1...1_000).map { index -> [String: Any] in
            var copy = test
            copy["tcId"] = index
            copy["PIN_VALUE"] = "00"
            return copy
        }
        root["testGroups"] = [groups[0]]
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
        let result = try WorkbenchProcess.run(["vectors", "verify", path])
        #expect(result.status == 1)
        #expect(result.stdout.components(separatedBy: "    FAIL tcId").count - 1 == 100, "\(result.stdout.prefix(300))")
        #expect(result.stdout.components(separatedBy: "  FAIL file structure:").count - 1 == 100)
        #expect(result.stdout.contains("  ... 900 more failing vectors not shown (at most 100 a file)"), "\(result.stdout.suffix(600))")
        #expect(result.stdout.contains("more file structure problems not shown (at most 100 a file)"), "\(result.stdout.suffix(600))")
    }
}
